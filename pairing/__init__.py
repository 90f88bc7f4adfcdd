"""Pairing people: quick-pairing seeks, challenges, rematch offers and the alerts that bring a
player to a match (floor 4, beside ``tournaments``: it reads ratings and blocks, and makes its
tables through ``play.services``)."""
