"""Reproductions of buttcher (filled in by the reproduction work)."""

from __future__ import annotations
