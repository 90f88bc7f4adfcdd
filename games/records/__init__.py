"""What a match leaves behind: its record (replayed exactly by the engine), the steps of its
replay, its JSON export and the proof that its deal was fixed before the first card."""
