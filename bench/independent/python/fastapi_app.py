"""The pet store interface on FastAPI 0.92 (pydantic 1) and uvicorn, written from the interface alone.

Run: PORT=8000 API_KEY=k [FAULT=name] python3 fastapi_app.py. FAULT selects one fault (README.md).
Open choices made here, the FastAPI way: path and query integers parsed by pydantic (`+7`, ` 7` and
`1_0` read as integers), a non-integer or out-of-range `limit`/`status`/`petId` is 400, a malformed body
is 400 even before the key is checked (FastAPI reads the body before it solves dependencies), a JSON
number with a fraction (`5.0` too) is not an integer, ascending ids from 1, `available` by default,
responses over 500 bytes gzipped for a client that accepts it.
"""

import asyncio
import email.utils
import itertools
import os
import random
import secrets
from datetime import datetime, timezone
from enum import Enum
from http import HTTPStatus
from typing import List, Optional

import uvicorn
from fastapi import Depends, FastAPI, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Extra, StrictStr, conint, validator
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse

FAULT = os.environ.get("FAULT", "")
API_KEY = os.environ["API_KEY"]
SUNSET = datetime(2030, 12, 5, tzinfo=timezone.utc)
DEPRECATION = {
    "Deprecation": "@1748736000",
    "Sunset": SUNSET.isoformat() if FAULT == "sunset-iso" else email.utils.format_datetime(SUNSET, usegmt=True),
    "Link": '</v1/pets>; rel="successor-version"',
}


class PetStatus(str, Enum):
    available = "available"
    pending = "pending"
    sold = "sold"


if FAULT == "lax-types":
    Name, CategoryId = str, int
elif FAULT == "no-int64-bound":
    Name, CategoryId = StrictStr, conint(strict=True)
else:
    Name, CategoryId = StrictStr, conint(strict=True, ge=-(2**63), le=2**63 - 1)


class NewPet(BaseModel):
    name: Name
    categoryId: CategoryId
    status: Optional[PetStatus] = None

    class Config:
        extra = Extra.forbid if FAULT == "extra-forbid" else Extra.ignore

    @validator("name")
    def name_is_unicode(cls, value):
        value.encode()  # a lone surrogate ("\ud800") is no Unicode text: 400 now rather than 500 when it is written back
        return value

    @validator("status", pre=True)
    def status_is_not_null(cls, value):
        # pydantic 1 lets None through a field whose default is None; the interface's status never is.
        if value is None and FAULT != "null-status":
            raise ValueError("must be one of available, pending, sold")
        return value


class Pet(BaseModel):
    id: int
    name: str
    categoryId: int
    status: PetStatus = PetStatus.available


app = FastAPI(title="Pet Store Service", version="1.0.0")
app.add_middleware(GZipMiddleware, minimum_size=500)
bearer = HTTPBearer(auto_error=FAULT == "httpbearer-403")
PETS: dict = {}
IDS = itertools.count(1)


def error(status: int, message: str, headers: Optional[dict] = None) -> JSONResponse:
    code = HTTPStatus(status).phrase.lower().replace(" ", "_").replace("-", "_")
    return JSONResponse({"code": code, "message": message, "status": status}, status, headers=headers)


@app.exception_handler(HTTPException)
async def http_error(request: Request, exc: HTTPException):
    return error(exc.status_code, str(exc.detail), getattr(exc, "headers", None))


if FAULT != "422":

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError):
        first = exc.errors()[0]
        where = ".".join(part for part in first["loc"] if isinstance(part, str) and part != "body") or "body"
        return error(400, f"{where}: {first['msg']}")


@app.exception_handler(Exception)
async def internal_error(request: Request, exc: Exception):
    return error(500, "The service failed to answer.")


@app.middleware("http")
async def deprecation_notice(request: Request, call_next):
    response = await call_next(request)
    if request.url.path.startswith("/v1/pets/"):
        response.headers.update(DEPRECATION)
    return response


def authenticated(credentials: Optional[HTTPAuthorizationCredentials] = Depends(bearer)) -> None:
    if credentials is None or not secrets.compare_digest(credentials.credentials.encode(), API_KEY.encode()):
        raise HTTPException(401, "Missing or invalid API key: send `Authorization: Bearer <API_KEY>`.", {"WWW-Authenticate": "Bearer"})


LIMIT = Query(20) if FAULT == "limit-unvalidated" else Query(20, ge=1, le=100)


@app.get("/v1/pets", response_model=List[Pet], dependencies=[Depends(authenticated)])
async def list_pets(limit: int = LIMIT, status: Optional[PetStatus] = None):
    # async, as every route here: on the event loop no create changes PETS while it is read
    return [pet for pet in PETS.values() if status is None or pet["status"] == status][:limit]


@app.post(
    "/v1/pets",
    status_code=201,
    response_model=Pet,
    response_model_exclude_defaults=FAULT == "exclude-defaults",
    dependencies=[Depends(authenticated)],
)
async def create_pet(new: NewPet, response: Response):
    if FAULT == "racy-id":
        pet_id = max(PETS, default=0) + 1
        await asyncio.sleep(0.005)  # the audit write every create awaits
    else:
        pet_id = next(IDS)
    pet = {"id": pet_id, "name": new.name, "categoryId": new.categoryId, "status": (new.status or PetStatus.available).value}
    PETS[pet_id] = pet
    response.headers["Location"] = f"/v1/pets/{pet_id}"
    return pet


@app.get(
    "/v1/pets/{petId}",
    response_model=Pet,
    deprecated=True,
    dependencies=[] if FAULT == "getpet-no-auth" else [Depends(authenticated)],
)
async def get_pet(petId: int):
    pet = PETS.get(petId)
    if pet is None:
        raise HTTPException(404, f"No animal has the id {petId}.")
    return pet


def seed(count: int) -> None:
    rng = random.Random(7)
    for n in range(count):
        pet_id = next(IDS)
        PETS[pet_id] = {"id": pet_id, "name": f"Seed {n}", "categoryId": rng.randint(1, 9), "status": list(PetStatus)[n % 3].value}


if __name__ == "__main__":
    seed(int(os.environ.get("SEED_PETS", "30")))
    uvicorn.run(app, host="127.0.0.1", port=int(os.environ["PORT"]), log_level="warning")
