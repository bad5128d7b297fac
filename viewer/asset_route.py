"""The route that serves Wake's components' files for good (issue 21 item 12):
``/wake-assets/<component>/<digest>/<file>``, from memory, with a year's immutable caching
(the digest names the content, so a changed file is another address). Nothing in the address
is used as a path: the component, digest and file are looked up among the files this process
assembled (``viewer/components.py``), and anything else is a 404."""

from __future__ import annotations

import gzip
from functools import lru_cache

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from viewer.components import ASSET_ROUTE, assembled

IMMUTABLE = "public, max-age=31536000, immutable"
TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}


@lru_cache(maxsize=64)
def _gzipped(name: str, digest: str, file: str) -> bytes:
    found = assembled(name, digest)
    return gzip.compress(found.files[file], compresslevel=6) if found else b""


async def _asset(request: Request) -> Response:
    name = str(request.path_params["name"])
    digest = str(request.path_params["digest"])
    file = str(request.path_params["file"])
    found = assembled(name, digest)
    kind = TYPES.get(file[file.rfind(".") :]) if "." in file else None
    if found is None or file not in found.files or kind is None:
        return PlainTextResponse("not found", status_code=404)
    headers = {"Cache-Control": IMMUTABLE, "X-Content-Type-Options": "nosniff"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers["Content-Encoding"] = "gzip"  # compressed once, not at every request
        headers["Vary"] = "Accept-Encoding"
        return Response(_gzipped(name, digest, file), media_type=kind, headers=headers)
    return Response(found.files[file], media_type=kind, headers=headers)


def asset_routes(base_url: str = "") -> list[Route]:
    """The asset route, under the server's base URL path (``server.baseUrlPath``)."""
    base = "/" + base_url.strip("/") if base_url.strip("/") else ""
    return [Route(f"{base}/{ASSET_ROUTE}/{{name}}/{{digest}}/{{file}}", _asset, methods=["GET"])]
