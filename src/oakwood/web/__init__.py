"""``oakwood serve``: the lobby, the tables and the browser client (see ``docs/web.md``).

The server is authoritative and holds every table (:mod:`.table`, :mod:`.room`, :mod:`.registry`); what a
client may send is checked by :mod:`.protocol`; :mod:`.app` is the FastAPI application, and the client is
static files under ``static/`` served by the same process.
"""
