"""Grade sentinels shared by the Experiment's arrays and the measure kernels (a module of
its own so that the kernels import without pandas or pyarrow)."""

UNJUDGED = -128  # grade sentinel: the document is not in the (pooled) qrels
NO_DOC = -127  # grade sentinel: the run has no document at this rank
MIN_GRADE, MAX_GRADE = -126, 127  # the grades an int8 array holds besides the sentinels
