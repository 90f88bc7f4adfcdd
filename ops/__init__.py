"""What the operator sees: health, metrics, error reports and the staff's ops page
(``docs/operations.md``)."""
