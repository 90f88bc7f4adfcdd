"""The analysis board: any position opened, played on for any seat, shared as a link, and each
legal move's chance judged by the strong search (``docs/analysis.md``)."""
