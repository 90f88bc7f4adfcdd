"""Learn Durak: short lessons, each step a real position where the learner makes the move it asks
(``docs/learn.md``)."""
