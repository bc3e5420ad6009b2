"""QEMU guest harness of the kiobench test suite (see README.md here)."""
