"""The pet store interface on aiohttp 3.8 (its own server), written from the interface and the spec.

Run: PORT=8000 API_KEY=k [FAULT=name] python3 aiohttp_app.py. FAULT selects one fault (README.md).
Open choices made here, the aiohttp way: ids are random 62-bit integers (`secrets.randbits`), beyond
2^53; the page is in the order pets were added; a pet added without a status is `pending`; a bad `limit`
or `status` is 400; a `petId` that is no decimal integer is 400; the body is read with Python's json
(which takes `NaN`, an extension RFC 8259 section 9 allows); a body not sent as JSON is 415; errors
carry `code` in upper case (`BAD_REQUEST`); `Location` is relative; every answer of getPet carries
`Deprecation: @1748736000`, `Sunset` and `Link`, set by a middleware; 401 says `WWW-Authenticate: Bearer`.
"""

import asyncio
import hmac
import json
import os
import re
import secrets

from aiohttp import web

FAULT = os.environ.get("FAULT", "")
API_KEY = os.environ["API_KEY"]
STATUSES = ("available", "pending", "sold")
INT64 = range(-(2**63), 2**63)
DEPRECATION = {
    "Deprecation": "@1748736000",
    "Sunset": "Thu, 05 Dec 2030 00:00:00 GMT",
    "Link": '</v1/pets>; rel="successor-version"',
}
REASONS = {400: "BAD_REQUEST", 401: "UNAUTHORIZED", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED", 413: "PAYLOAD_TOO_LARGE", 415: "UNSUPPORTED_MEDIA_TYPE", 500: "INTERNAL_ERROR"}

PETS = {}  # id -> pet, in the order added (dicts keep it)
LOCK = asyncio.Lock()


def error(status, message, headers=None):
    return web.json_response({"code": REASONS.get(status, "ERROR"), "message": message, "status": status}, status=status, headers=headers)


class Refusal(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status, self.message = status, message


def is_int64(value):
    if FAULT == "bool-int":
        return isinstance(value, int) and value in INT64  # True is an int in Python
    return isinstance(value, int) and not isinstance(value, bool) and value in INT64


def check_key(request):
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(token.encode(), API_KEY.encode()):
        raise Refusal(401, "Missing or invalid API key: send `Authorization: Bearer <API_KEY>`.")


@web.middleware
async def errors_as_json(request, handler):
    try:
        response = await handler(request)
    except Refusal as refusal:
        headers = {"WWW-Authenticate": "Bearer"} if refusal.status == 401 else None
        response = error(refusal.status, refusal.message, headers)
    except web.HTTPException as http:
        if FAULT == "route-regex-404" and http.status == 404:
            raise
        headers = {"Allow": http.headers["Allow"]} if "Allow" in http.headers else None
        response = error(http.status, http.reason, headers)
    except Exception:  # noqa: BLE001 - every fault is an Error body
        response = error(500, "The service failed to answer.")
    if request.match_info.route.name == "getPet":
        response.headers.update(DEPRECATION)
    return response


async def list_pets(request):
    raw_limit = request.query.get("limit", "20")
    if not re.fullmatch(r"[0-9]+", raw_limit) or not 1 <= int(raw_limit) <= 100:
        raise Refusal(400, "limit: an integer from 1 to 100")
    status = request.query.get("status")
    if FAULT == "status-lower" and status is not None:
        status = status.lower()
    if status is not None and status not in STATUSES:
        raise Refusal(400, "status: one of available, pending, sold")
    check_key(request)
    pets = [pet for pet in PETS.values() if status is None or pet["status"] == status]
    return web.json_response(pets[: int(raw_limit)])


async def read_new_pet(request):
    if FAULT != "any-content-type" and request.content_type != "application/json":
        raise Refusal(415, "Send the body as JSON with `Content-Type: application/json`.")
    text = await request.text()
    try:
        data = json.loads(text)
    except ValueError as problem:
        raise Refusal(400, f"The body is not JSON: {problem}") from None
    if not isinstance(data, dict):
        raise Refusal(400, "The body must be a JSON object (NewPet).")
    name, category_id, status = data.get("name"), data.get("categoryId"), data.get("status", "pending")
    if not isinstance(name, str):
        raise Refusal(400, "name: required, a string")
    if FAULT == "name-strip":
        name = name.strip()
    if not is_int64(category_id):
        raise Refusal(400, "categoryId: required, an int64 integer")
    if status not in STATUSES:
        raise Refusal(400, "status: one of available, pending, sold")
    return {"name": name, "categoryId": category_id, "status": status}


async def create_pet(request):
    check_key(request)
    new = await read_new_pet(request)
    if FAULT == "unlocked-id":
        pet_id = max(PETS, default=0) + 1
        await asyncio.sleep(0.002)  # the write to the store, awaited
        pet = {"id": pet_id, **new}
        PETS[pet_id] = pet
    else:
        async with LOCK:
            pet_id = secrets.randbits(62)
            while pet_id in PETS:
                pet_id = secrets.randbits(62)
            pet = {"id": pet_id, **new}
            PETS[pet_id] = pet
    return web.json_response(pet, status=201, headers={"Location": f"/v1/pets/{pet_id}"})


async def get_pet(request):
    raw = request.match_info["pet_id"]
    if not re.fullmatch(r"-?[0-9]+", raw) or int(raw) not in INT64:
        raise Refusal(400, "petId: an int64 integer")
    check_key(request)
    pet = PETS.get(int(raw))
    if pet is None:
        raise Refusal(404, f"No animal has the id {raw}.")
    return web.json_response(pet)


def main():
    for n in range(int(os.environ.get("SEED_PETS", "30"))):
        pet_id = n + 1 if FAULT == "unlocked-id" else secrets.randbits(62)
        PETS[pet_id] = {"id": pet_id, "name": f"Seed {n}", "categoryId": 1 + n % 9, "status": STATUSES[n % 3]}
    app = web.Application(middlewares=[errors_as_json], client_max_size=1024 * 1024)
    app.router.add_get("/v1/pets", list_pets, name="listPets", allow_head=False)
    app.router.add_post("/v1/pets", create_pet, name="createPet")
    pattern = "/v1/pets/{pet_id:-?[0-9]+}" if FAULT == "route-regex-404" else "/v1/pets/{pet_id}"
    app.router.add_get(pattern, get_pet, name="getPet", allow_head=False)
    web.run_app(app, host="127.0.0.1", port=int(os.environ.get("PORT", "8000")), print=None, access_log=None)


if __name__ == "__main__":
    main()
