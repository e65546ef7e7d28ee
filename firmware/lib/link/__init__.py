"""The host link: JSON-lines protocol between a prop board and the desktop, shared by both."""
