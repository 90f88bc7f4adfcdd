"""The ``stack`` fixture (``tests.faults.support``)."""

from tests.faults.support import stack

__all__ = ["stack"]
