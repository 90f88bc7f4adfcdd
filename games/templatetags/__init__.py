"""Template tag libraries of the games app (``{% load cards %}``)."""
