"""``circle``, the two-stage house rules (``docs/rules.md`` §5) [004]: :mod:`.stage1` collects
the hands from a circle of face-up cards, :mod:`.stage2` plays them out, with the throw-in
rounds of :mod:`.rounds`."""
