"""Reproductions of baillie (filled in by the reproduction work)."""

from __future__ import annotations
