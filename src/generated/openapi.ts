// Generated from spec/openapi.yaml by `npm run generate`. Do not edit.
import type { OpenApiDocument } from '../openapi/document.js';

const document = {
  "openapi": "3.1.0",
  "info": {
    "title": "Pet Store Service",
    "version": "1.0.0",
    "summary": "List, add and read animals over JSON/HTTP with bearer authentication.",
    "description": "A JSON-over-HTTP interface for listing, adding and reading the animals offered in a store.\nAll request and response bodies are JSON (`application/json`) and every operation requires a\nbearer credential.\n\n## Decisions where the interface description is silent\nThis document is the single source of truth of the `petstore-mock` project. Where the interface\ndescription leaves a point open, the mock makes the choice written here; the contract verifier\n(`petstore-verify`) accepts every choice the interface leaves open.\n\n| Point | Decision |\n|---|---|\n| Bad `limit` or `status` on `listPets` | 400 Error naming the parameter |\n| `petId` that is not an int64 on `getPet` | 400 Error; ids that are valid int64 but absent (also 0 and negatives) are 404 |\n| Status of an animal added without one | `available` (`x-server-default` on `NewPet.status`; not a schema `default`, so that generated request types keep the field optional) |\n| Request body larger than 1 MiB | 413 Error (`x-max-body-bytes` on `createPet`) |\n| Request body that is not JSON | 415 Error |\n| `getPet` after its sunset (5 December 2030) | 410 Error with only `Sunset`, by the clock of the request's session, before its `petId` is read and whatever it prefers (`code=`, `auth=expired`); the key is still checked first, so a missing or wrong key is 401, and every answer then carries only `Sunset`. Before the sunset, every answer (errors and forced ones too) carries `Deprecation: @1748736000` (RFC 9745, `x-deprecated-at`), `Sunset` and `Link` |\n| Error `code` values | the stable set in `x-error-codes` on the `Error` schema |\n| Order of `listPets` | ascending `id` |\n| Integers in JSON bodies (`categoryId`) | read from the JSON text, never through a double: a number with a fraction is 400 naming the field (`4.9999999999999999` is not 5); an integer written with a zero fraction or an exponent (`5.0`, `1e2`, `9007199254740993.0`) is kept exactly, as JSON Schema counts it an integer |\n| Integers in the path and query (`petId`, `limit`) | plain digits only: a fraction, `1.0` or `1e2` is 400 naming the parameter; a value out of range names the documented bounds (`limit` from 1 to 100) |\n| 429, 500 and 503 on every operation | the mock answers them only when a client asks (`Prefer: code=`), or, for 429, past its cap on sessions (`X-Mock-Session`), or, for 503, while the Redis its state lives in (`--store`) does not answer |\n| Values of the seeded pets and fixtures | drawn from each field's schema (its enum, type, bounds, lengths and format); `x-faker` names the faker method of a field, as json-schema-faker reads it |\n| Statuses a client may force with `Prefer: code=` | the error statuses documented for the operation; never a success, which only the mock's state can give |\n",
    "license": {
      "name": "MIT",
      "identifier": "MIT"
    },
    "contact": {
      "name": "petstore-mock maintainers",
      "url": "https://github.com/petstore-mock/petstore-mock"
    }
  },
  "servers": [
    {
      "url": "http://127.0.0.1:4010/v1",
      "description": "The local mock (`npm start`, or `npx --package petstore-mock petstore-mock`)"
    },
    {
      "url": "https://api.petstore.example/v1",
      "description": "Production"
    },
    {
      "url": "https://staging.petstore.example/v1",
      "description": "Staging"
    }
  ],
  "tags": [
    {
      "name": "animals",
      "description": "The catalogue of animals offered in the store."
    }
  ],
  "security": [
    {
      "bearerAuth": []
    }
  ],
  "paths": {
    "/pets": {
      "get": {
        "operationId": "listPets",
        "summary": "List all animals",
        "description": "Returns a page of animals in ascending `id` order, at most `limit` of them. Page navigation\n(cursor, offset, total count, link headers) is not part of this interface.\n",
        "tags": [
          "animals"
        ],
        "security": [
          {
            "bearerAuth": []
          }
        ],
        "parameters": [
          {
            "name": "limit",
            "in": "query",
            "required": false,
            "description": "Maximum number of animals returned (1 to 100, default 20).",
            "schema": {
              "type": "integer",
              "format": "int32",
              "minimum": 1,
              "maximum": 100,
              "default": 20
            },
            "example": 20
          },
          {
            "name": "status",
            "in": "query",
            "required": false,
            "description": "Returns only animals with this status.",
            "schema": {
              "$ref": "#/components/schemas/PetStatus"
            },
            "example": "available"
          }
        ],
        "responses": {
          "200": {
            "description": "The page of animals.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Pets"
                },
                "example": [
                  {
                    "id": 1,
                    "name": "Gus",
                    "categoryId": 8,
                    "status": "available"
                  },
                  {
                    "id": 2,
                    "name": "Daisy",
                    "categoryId": 2,
                    "status": "available"
                  }
                ]
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "429": {
            "$ref": "#/components/responses/TooManyRequests"
          },
          "500": {
            "$ref": "#/components/responses/InternalError"
          },
          "503": {
            "$ref": "#/components/responses/ServiceUnavailable"
          }
        }
      },
      "post": {
        "operationId": "createPet",
        "summary": "Add an animal",
        "description": "Adds an animal. The service assigns its `id`; an `id` sent by the client is ignored, and so\nis any field the `NewPet` schema does not name. The response carries a `Location` header\nwith the path of the new animal.\n",
        "tags": [
          "animals"
        ],
        "security": [
          {
            "bearerAuth": []
          }
        ],
        "x-max-body-bytes": 1048576,
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/NewPet"
              },
              "example": {
                "name": "Rex",
                "categoryId": 3,
                "status": "pending"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Animal added; the body carries the assigned `id`.",
            "headers": {
              "Location": {
                "description": "Path of the new animal, `/v1/pets/{id}`.",
                "schema": {
                  "type": "string"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Pet"
                },
                "example": {
                  "id": 51,
                  "name": "Rex",
                  "categoryId": 3,
                  "status": "pending"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "413": {
            "description": "The request body is larger than 1 MiB (`x-max-body-bytes`).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                },
                "example": {
                  "code": "payload_too_large",
                  "message": "The request body is larger than 1048576 bytes.",
                  "status": 413
                }
              }
            }
          },
          "415": {
            "description": "The request body is not sent as `application/json`.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                },
                "example": {
                  "code": "unsupported_media_type",
                  "message": "Send the body as JSON with `Content-Type: application/json`.",
                  "status": 415
                }
              }
            }
          },
          "429": {
            "$ref": "#/components/responses/TooManyRequests"
          },
          "500": {
            "$ref": "#/components/responses/InternalError"
          },
          "503": {
            "$ref": "#/components/responses/ServiceUnavailable"
          }
        }
      }
    },
    "/pets/{petId}": {
      "get": {
        "operationId": "getPet",
        "summary": "Get an animal (deprecated)",
        "description": "Deprecated: scheduled for removal on 5 December 2030 (`x-sunset`). The replacement is\n`GET /pets` with the `status` filter. Until then the operation keeps working and its\nresponses carry `Deprecation`, `Sunset` and `Link` headers; from the sunset on it answers\n410.\n",
        "tags": [
          "animals"
        ],
        "deprecated": true,
        "x-deprecated-at": "2025-06-01T00:00:00Z",
        "x-sunset": "2030-12-05T00:00:00Z",
        "x-replacement": "listPets",
        "security": [
          {
            "bearerAuth": []
          }
        ],
        "parameters": [
          {
            "name": "petId",
            "in": "path",
            "required": true,
            "description": "The identifier of the animal.",
            "schema": {
              "type": "integer",
              "format": "int64"
            },
            "example": 1
          }
        ],
        "responses": {
          "200": {
            "description": "The requested animal.",
            "headers": {
              "Deprecation": {
                "$ref": "#/components/headers/Deprecation"
              },
              "Sunset": {
                "$ref": "#/components/headers/Sunset"
              },
              "Link": {
                "$ref": "#/components/headers/Link"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Pet"
                },
                "example": {
                  "id": 1,
                  "name": "Gus",
                  "categoryId": 8,
                  "status": "available"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/GetPetBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/GetPetUnauthorized"
          },
          "404": {
            "description": "The requested resource could not be found.",
            "headers": {
              "Deprecation": {
                "$ref": "#/components/headers/Deprecation"
              },
              "Sunset": {
                "$ref": "#/components/headers/Sunset"
              },
              "Link": {
                "$ref": "#/components/headers/Link"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                },
                "example": {
                  "code": "not_found",
                  "message": "No animal has the id 99999.",
                  "status": 404
                }
              }
            }
          },
          "410": {
            "description": "The operation has been removed (the request came after its sunset).",
            "headers": {
              "Sunset": {
                "$ref": "#/components/headers/Sunset"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                },
                "example": {
                  "code": "gone",
                  "message": "getPet was removed on 5 December 2030; use GET /v1/pets with the status filter.",
                  "status": 410
                }
              }
            }
          },
          "429": {
            "$ref": "#/components/responses/GetPetTooManyRequests"
          },
          "500": {
            "$ref": "#/components/responses/GetPetInternalError"
          },
          "503": {
            "$ref": "#/components/responses/GetPetServiceUnavailable"
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "description": "The API key, sent as `Authorization: Bearer <API_KEY>`. A missing or invalid key is\nanswered 401 with an Error body and `WWW-Authenticate: Bearer`.\n"
      }
    },
    "headers": {
      "Deprecation": {
        "description": "When the operation was deprecated (RFC 9745): a structured-field Date, `@` and the seconds\nsince the epoch of `x-deprecated-at`, `@1748736000` (1 June 2025). Deployments that predate\nRFC 9745 may send the legacy `true`, which clients should accept, or the HTTP-date of the\ndrafts before it, which clients should accept too and senders should no longer write\n(the branch marked `deprecated`).\n",
        "schema": {
          "type": "string",
          "anyOf": [
            {
              "pattern": "^(@-?[0-9]{1,15}|true)$"
            },
            {
              "pattern": "^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$",
              "deprecated": true
            }
          ]
        }
      },
      "Sunset": {
        "description": "The moment the operation is removed (RFC 8594), `Thu, 05 Dec 2030 00:00:00 GMT`, an HTTP-date as senders write it (IMF-fixdate).",
        "schema": {
          "type": "string",
          "pattern": "^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$"
        }
      },
      "Link": {
        "description": "Points to the replacement operation, with `rel=\"successor-version\"` (RFC 8288).",
        "schema": {
          "type": "string",
          "pattern": "^<[^<>]*>"
        }
      },
      "Retry-After": {
        "description": "How long to wait before sending the request again (RFC 9110 §10.2.3): a number of seconds, `1`,\nor an HTTP-date as senders write it (IMF-fixdate). The mock sends `1` on every 429 and 503, the\nones a client forces with `Prefer: code=` too.\n",
        "schema": {
          "type": "string",
          "pattern": "^([0-9]{1,10}|(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT)$"
        },
        "example": "1"
      }
    },
    "responses": {
      "BadRequest": {
        "description": "The request is invalid; the message names the field or parameter at fault.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "bad_request",
              "message": "limit: must be <= 100",
              "status": 400
            }
          }
        }
      },
      "Unauthorized": {
        "description": "Missing or invalid API key.",
        "headers": {
          "WWW-Authenticate": {
            "description": "The authentication scheme, `Bearer`.",
            "schema": {
              "type": "string"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "unauthorized",
              "message": "Missing credential: send the API key as `Authorization: Bearer <API_KEY>`.",
              "status": 401
            }
          }
        }
      },
      "TooManyRequests": {
        "description": "Too many requests. The mock answers it when a request would open a session (`X-Mock-Session`)\nbeyond its cap, or when a client asks for it with `Prefer: code=429`.\n",
        "headers": {
          "Retry-After": {
            "$ref": "#/components/headers/Retry-After"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "too_many_requests",
              "message": "Too many requests; try again later.",
              "status": 429
            }
          }
        }
      },
      "InternalError": {
        "description": "A fault of the service. The mock answers it when a client asks for it with `Prefer: code=500`,\nor when its self-check finds one of its own responses breaking this document (a bug).\n",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "internal_error",
              "message": "The service failed to answer; please report it.",
              "status": 500
            }
          }
        }
      },
      "ServiceUnavailable": {
        "description": "The service is unavailable for a while. The mock answers it when a client asks for it with\n`Prefer: code=503`, and, with its state in Redis (`--store`), while Redis does not answer.\n",
        "headers": {
          "Retry-After": {
            "$ref": "#/components/headers/Retry-After"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "service_unavailable",
              "message": "The service is unavailable for a while; try again later.",
              "status": 503
            }
          }
        }
      },
      "GetPetBadRequest": {
        "description": "The request is invalid; the message names the parameter at fault.",
        "headers": {
          "Deprecation": {
            "$ref": "#/components/headers/Deprecation"
          },
          "Sunset": {
            "$ref": "#/components/headers/Sunset"
          },
          "Link": {
            "$ref": "#/components/headers/Link"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "bad_request",
              "message": "petId must be an integer",
              "status": 400
            }
          }
        }
      },
      "GetPetUnauthorized": {
        "description": "Missing or invalid API key.",
        "headers": {
          "WWW-Authenticate": {
            "description": "The authentication scheme, `Bearer`.",
            "schema": {
              "type": "string"
            }
          },
          "Deprecation": {
            "$ref": "#/components/headers/Deprecation"
          },
          "Sunset": {
            "$ref": "#/components/headers/Sunset"
          },
          "Link": {
            "$ref": "#/components/headers/Link"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "unauthorized",
              "message": "Missing credential: send the API key as `Authorization: Bearer <API_KEY>`.",
              "status": 401
            }
          }
        }
      },
      "GetPetTooManyRequests": {
        "description": "Too many requests, as on every operation (`TooManyRequests`).",
        "headers": {
          "Deprecation": {
            "$ref": "#/components/headers/Deprecation"
          },
          "Sunset": {
            "$ref": "#/components/headers/Sunset"
          },
          "Link": {
            "$ref": "#/components/headers/Link"
          },
          "Retry-After": {
            "$ref": "#/components/headers/Retry-After"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "too_many_requests",
              "message": "Too many requests; try again later.",
              "status": 429
            }
          }
        }
      },
      "GetPetInternalError": {
        "description": "A fault of the service, as on every operation (`InternalError`).",
        "headers": {
          "Deprecation": {
            "$ref": "#/components/headers/Deprecation"
          },
          "Sunset": {
            "$ref": "#/components/headers/Sunset"
          },
          "Link": {
            "$ref": "#/components/headers/Link"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "internal_error",
              "message": "The service failed to answer; please report it.",
              "status": 500
            }
          }
        }
      },
      "GetPetServiceUnavailable": {
        "description": "The service is unavailable for a while, as on every operation (`ServiceUnavailable`).",
        "headers": {
          "Deprecation": {
            "$ref": "#/components/headers/Deprecation"
          },
          "Sunset": {
            "$ref": "#/components/headers/Sunset"
          },
          "Link": {
            "$ref": "#/components/headers/Link"
          },
          "Retry-After": {
            "$ref": "#/components/headers/Retry-After"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "example": {
              "code": "service_unavailable",
              "message": "The service is unavailable for a while; try again later.",
              "status": 503
            }
          }
        }
      }
    },
    "schemas": {
      "PetStatus": {
        "type": "string",
        "description": "Availability status of an animal.",
        "enum": [
          "available",
          "pending",
          "sold"
        ]
      },
      "NewPet": {
        "type": "object",
        "description": "The body of a request that adds an animal.",
        "required": [
          "name",
          "categoryId"
        ],
        "properties": {
          "name": {
            "type": "string",
            "description": "The animal's name.",
            "x-faker": "animal.petName"
          },
          "categoryId": {
            "type": "integer",
            "format": "int64",
            "description": "Identifier of the category the animal belongs to.",
            "x-faker": {
              "number.int": {
                "min": 1,
                "max": 10
              }
            }
          },
          "status": {
            "$ref": "#/components/schemas/PetStatus",
            "description": "Availability status; the service stores `available` when it is omitted.",
            "x-server-default": "available"
          }
        }
      },
      "Pet": {
        "description": "An animal as returned, with the identifier the service assigned.",
        "allOf": [
          {
            "$ref": "#/components/schemas/NewPet"
          },
          {
            "type": "object",
            "required": [
              "id"
            ],
            "properties": {
              "id": {
                "type": "integer",
                "format": "int64",
                "description": "Unique identifier, assigned by the service on creation."
              }
            }
          }
        ]
      },
      "Pets": {
        "type": "array",
        "description": "A page of animals, as a bare JSON array.",
        "items": {
          "$ref": "#/components/schemas/Pet"
        }
      },
      "Error": {
        "type": "object",
        "description": "The body of every error response.",
        "required": [
          "code",
          "message",
          "status"
        ],
        "properties": {
          "code": {
            "type": "string",
            "description": "Machine-readable error code; the mock's stable values are listed in `x-error-codes`."
          },
          "message": {
            "type": "string",
            "description": "Human-readable description."
          },
          "status": {
            "type": "integer",
            "description": "The HTTP status code of the response."
          }
        },
        "x-error-codes": {
          "bad_request": {
            "status": 400,
            "description": "A parameter or body field is invalid; the message names it."
          },
          "malformed_json": {
            "status": 400,
            "description": "The request body is not valid JSON."
          },
          "unauthorized": {
            "status": 401,
            "description": "The bearer credential is missing or invalid."
          },
          "not_found": {
            "status": 404,
            "description": "No animal has the given id, or no operation has the path."
          },
          "forbidden": {
            "status": 403,
            "description": "A Host the mock does not serve, or an admin request a page on another origin could send."
          },
          "method_not_allowed": {
            "status": 405,
            "description": "The path exists but not with this method; see `Allow`."
          },
          "request_timeout": {
            "status": 408,
            "description": "The client took too long to send its request's headers or body."
          },
          "gone": {
            "status": 410,
            "description": "The operation was removed at its sunset."
          },
          "payload_too_large": {
            "status": 413,
            "description": "The request body is larger than 1 MiB."
          },
          "unsupported_media_type": {
            "status": 415,
            "description": "The request body is not `application/json`."
          },
          "expectation_failed": {
            "status": 417,
            "description": "The request's `Expect` names an expectation other than `100-continue`."
          },
          "request_header_fields_too_large": {
            "status": 431,
            "description": "The request's headers are larger than 16 KiB."
          },
          "too_many_requests": {
            "status": 429,
            "description": "Too many requests: the mock's cap on sessions is reached, or the client asked for a 429."
          },
          "internal_error": {
            "status": 500,
            "description": "A fault of the service: of the mock itself (please report it), or asked for with `Prefer: code=500`."
          },
          "service_unavailable": {
            "status": 503,
            "description": "The service is unavailable for a while; the client asked for it with `Prefer`."
          }
        }
      }
    }
  }
} as const;

/** spec/openapi.yaml, with literal types. */
export const openapi = document satisfies OpenApiDocument;
