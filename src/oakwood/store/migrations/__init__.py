"""Alembic migrations of the store, shipped inside the package so an installed Oakwood can migrate itself."""
