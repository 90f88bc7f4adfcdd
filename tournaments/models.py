"""Tournament rows (a later issue); the pairing logic lives in the pure modules beside this one."""
