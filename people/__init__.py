"""People: who follows whom, who blocked whom, and who is online (floor 1, beside ``accounts``)."""
