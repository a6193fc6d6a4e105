"""The pet store interface on Flask 2.2 (Werkzeug's threaded server), written from the interface alone.

Run: PORT=8000 API_KEY=k [FAULT=name] python3 flask_app.py. FAULT selects one fault (README.md).
Open choices made here, the Flask way: ids are millisecond timestamps computed as floats, so JSON
writes them `1795817181276.0` (an integer to JSON Schema); `limit` is read with `type=int` (not an
integer: the default 20) and clamped to 1..100; an unknown `status` filters to an empty page; a `petId`
the `<int:>` converter refuses is a 404; `Location` is an absolute URL; `Deprecation: true` (the form
before RFC 9745); a pet added without a status has none; a body not sent as JSON is 400.
"""

import collections
import email.utils
import hmac
import json
import os
import re
import threading
import time

from flask import Flask, abort, jsonify, request, url_for
from werkzeug.exceptions import HTTPException, InternalServerError, Unauthorized

FAULT = os.environ.get("FAULT", "")
API_KEY = os.environ["API_KEY"]
STATUSES = ("available", "pending", "sold")
INT64 = range(-(2**63), 2**63)
SUNSET = email.utils.formatdate(1922659200, usegmt=True)  # 5 December 2030
CAPACITY = 25  # the write-behind cache of the vanish fault, which nothing flushes

app = Flask(__name__)
PETS = collections.OrderedDict()
CREATED = collections.deque()
LOCK = threading.Lock()
last_id = 0.0


def new_id() -> float:
    global last_id
    with LOCK:
        last_id = max(last_id + 1, time.time() * 1000 // 1)
        return last_id


def stored(pet: dict) -> dict:
    # The hash-store fault keeps pets as a key-value store's hash would: every value a string.
    return {k: str(int(v) if isinstance(v, float) else v) for k, v in pet.items()} if FAULT == "hash-store-strings" else pet


def add(pet: dict, created: bool = True) -> dict:
    with LOCK:
        PETS[int(pet["id"])] = stored(pet)
        if FAULT == "vanish" and created:
            CREATED.append(int(pet["id"]))
            if len(CREATED) > CAPACITY:
                del PETS[CREATED.popleft()]
    return pet


@app.errorhandler(HTTPException)
def http_error(e: HTTPException):
    if FAULT == "html-errors":
        return e
    body = {"error": e.description} if FAULT == "error-shape" else {"code": e.name.lower().replace(" ", "_"), "message": e.description, "status": e.code}
    response = jsonify(body)
    response.status_code = e.code
    response.headers.extend((k, v) for k, v in e.get_headers() if k.lower() != "content-type")
    if e.code == 401:
        response.headers["WWW-Authenticate"] = "Bearer"
    return response


@app.errorhandler(Exception)
def internal_error(e: Exception):
    app.logger.exception("unhandled")
    return http_error(InternalServerError(description="The service failed to answer."))


@app.before_request
def authenticate():
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(token.encode(), API_KEY.encode()):
        raise Unauthorized(description="Missing or invalid API key: send `Authorization: Bearer <API_KEY>`.")


@app.after_request
def deprecation_notice(response):
    if request.path.startswith("/v1/pets/"):
        response.headers["Deprecation"] = str(True) if FAULT == "deprecation-True" else "true"
        response.headers["Sunset"] = SUNSET
        response.headers["Link"] = '</v1/pets>; rel="successor-version"'
    return response


@app.get("/v1/pets")
def list_pets():
    limit = min(max(request.args.get("limit", 20, type=int), 1), 100)
    status = request.args.get("status")
    with LOCK:
        pets = list(PETS.values())
    if FAULT == "filter-with-limit" and "limit" in request.args:
        pets = pets[:limit]
    elif status is not None:
        pets = [pet for pet in pets if pet.get("status") == status]
    end = limit + 1 if FAULT == "limit-off-by-one" else limit
    return jsonify(pets[:end])


def invalid(message: str):
    abort(400, description=message)


@app.post("/v1/pets")
def create_pet():
    if FAULT == "ctype-exact" and request.headers.get("Content-Type") != "application/json":
        abort(415, description="Send the body with `Content-Type: application/json`.")
    data = request.get_json()
    if not isinstance(data, dict):
        invalid("The body must be a JSON object (NewPet).")
    name, category_id = data.get("name"), data.get("categoryId")
    if not isinstance(name, str):
        invalid("name: required, a string")
    if FAULT == "name-ascii" and not re.fullmatch(r"[\w .'-]+", name, re.ASCII):
        invalid("name: letters, digits, spaces, dots, dashes and apostrophes only")
    if not isinstance(category_id, int) or isinstance(category_id, bool) or category_id not in INT64:
        invalid("categoryId: required, an int64 integer")
    status = data["status"] if FAULT == "status-keyerror" else data.get("status", ...)
    if status is not ... and status not in STATUSES:
        invalid("status: one of available, pending, sold")
    pet = {"id": new_id(), "name": name, "categoryId": category_id}
    if status is not ...:
        pet["status"] = status
    add(pet)
    response = jsonify(pet)
    if FAULT != "created-200":
        response.status_code = 201
    if FAULT != "no-location":
        response.headers["Location"] = url_for("get_pet", pet_id=int(pet["id"]), _external=True)
    return response


@app.get("/v1/pets/<int:pet_id>")
def get_pet(pet_id: int):
    pet = PETS.get(pet_id)
    if pet is None:
        abort(404, description=f"No animal has the id {pet_id}.")
    return (json.dumps(pet), 200) if FAULT == "text-html" else jsonify(pet)


def seed(count: int) -> None:
    for n in range(count):
        add({"id": new_id(), "name": f"Seed {n}", "categoryId": 1 + n % 9, "status": STATUSES[n % 3]}, created=False)


if __name__ == "__main__":
    seed(int(os.environ.get("SEED_PETS", "30")))
    app.run(host="127.0.0.1", port=int(os.environ["PORT"]), threaded=True)
