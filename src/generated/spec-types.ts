// Generated from spec/openapi.yaml by `npm run generate`. Do not edit.
export type paths = {
    "/pets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List all animals
         * @description Returns a page of animals in ascending `id` order, at most `limit` of them. Page navigation
         *     (cursor, offset, total count, link headers) is not part of this interface.
         */
        get: operations["listPets"];
        put?: never;
        /**
         * Add an animal
         * @description Adds an animal. The service assigns its `id`; an `id` sent by the client is ignored, and so
         *     is any field the `NewPet` schema does not name. The response carries a `Location` header
         *     with the path of the new animal.
         */
        post: operations["createPet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pets/{petId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an animal (deprecated)
         * @deprecated
         * @description Deprecated: scheduled for removal on 5 December 2030 (`x-sunset`). The replacement is
         *     `GET /pets` with the `status` filter. Until then the operation keeps working and its
         *     responses carry `Deprecation`, `Sunset` and `Link` headers; from the sunset on it answers
         *     410.
         */
        get: operations["getPet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = Record<string, never>;
export type components = {
    schemas: {
        /**
         * @description Availability status of an animal.
         * @enum {string}
         */
        PetStatus: "available" | "pending" | "sold";
        /** @description The body of a request that adds an animal. */
        NewPet: {
            /** @description The animal's name. */
            name: string;
            /**
             * Format: int64
             * @description Identifier of the category the animal belongs to.
             */
            categoryId: number;
            /** @description Availability status; the service stores `available` when it is omitted. */
            status?: components["schemas"]["PetStatus"];
        };
        /** @description An animal as returned, with the identifier the service assigned. */
        Pet: components["schemas"]["NewPet"] & {
            /**
             * Format: int64
             * @description Unique identifier, assigned by the service on creation.
             */
            id: number;
        };
        /** @description A page of animals, as a bare JSON array. */
        Pets: components["schemas"]["Pet"][];
        /** @description The body of every error response. */
        Error: {
            /** @description Machine-readable error code; the mock's stable values are listed in `x-error-codes`. */
            code: string;
            /** @description Human-readable description. */
            message: string;
            /** @description The HTTP status code of the response. */
            status: number;
        };
    };
    responses: {
        /** @description The request is invalid; the message names the field or parameter at fault. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "bad_request",
                 *       "message": "limit: must be <= 100",
                 *       "status": 400
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Missing or invalid API key. */
        Unauthorized: {
            headers: {
                /** @description The authentication scheme, `Bearer`. */
                "WWW-Authenticate"?: string;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "unauthorized",
                 *       "message": "Missing credential: send the API key as `Authorization: Bearer <API_KEY>`.",
                 *       "status": 401
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description Too many requests. The mock answers it when a request would open a session (`X-Mock-Session`)
         *     beyond its cap, or when a client asks for it with `Prefer: code=429`.
         */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "too_many_requests",
                 *       "message": "Too many requests; try again later.",
                 *       "status": 429
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description A fault of the service. The mock answers it when a client asks for it with `Prefer: code=500`,
         *     or when its self-check finds one of its own responses breaking this document (a bug).
         */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "internal_error",
                 *       "message": "The service failed to answer; please report it.",
                 *       "status": 500
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The service is unavailable for a while. The mock answers it when a client asks for it with
         *     `Prefer: code=503`, and, with its state in Redis (`--store`), while Redis does not answer.
         */
        ServiceUnavailable: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "service_unavailable",
                 *       "message": "The service is unavailable for a while; try again later.",
                 *       "status": 503
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request is invalid; the message names the parameter at fault. */
        GetPetBadRequest: {
            headers: {
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "bad_request",
                 *       "message": "petId must be an integer",
                 *       "status": 400
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Missing or invalid API key. */
        GetPetUnauthorized: {
            headers: {
                /** @description The authentication scheme, `Bearer`. */
                "WWW-Authenticate"?: string;
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "unauthorized",
                 *       "message": "Missing credential: send the API key as `Authorization: Bearer <API_KEY>`.",
                 *       "status": 401
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Too many requests, as on every operation (`TooManyRequests`). */
        GetPetTooManyRequests: {
            headers: {
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["Link"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "too_many_requests",
                 *       "message": "Too many requests; try again later.",
                 *       "status": 429
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A fault of the service, as on every operation (`InternalError`). */
        GetPetInternalError: {
            headers: {
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "internal_error",
                 *       "message": "The service failed to answer; please report it.",
                 *       "status": 500
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The service is unavailable for a while, as on every operation (`ServiceUnavailable`). */
        GetPetServiceUnavailable: {
            headers: {
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["Link"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": "service_unavailable",
                 *       "message": "The service is unavailable for a while; try again later.",
                 *       "status": 503
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /**
         * @description When the operation was deprecated (RFC 9745): a structured-field Date, `@` and the seconds
         *     since the epoch of `x-deprecated-at`, `@1748736000` (1 June 2025). Deployments that predate
         *     RFC 9745 may send the legacy `true`, which clients should accept, or the HTTP-date of the
         *     drafts before it, which clients should accept too and senders should no longer write
         *     (the branch marked `deprecated`).
         */
        Deprecation: string | unknown | unknown;
        /** @description The moment the operation is removed (RFC 8594), `Thu, 05 Dec 2030 00:00:00 GMT`, an HTTP-date as senders write it (IMF-fixdate). */
        Sunset: string;
        /** @description Points to the replacement operation, with `rel="successor-version"` (RFC 8288). */
        Link: string;
        /**
         * @description How long to wait before sending the request again (RFC 9110 §10.2.3): a number of seconds, `1`,
         *     or an HTTP-date as senders write it (IMF-fixdate). The mock sends `1` on every 429 and 503, the
         *     ones a client forces with `Prefer: code=` too.
         * @example 1
         */
        "Retry-After": string;
    };
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    listPets: {
        parameters: {
            query?: {
                /**
                 * @description Maximum number of animals returned (1 to 100, default 20).
                 * @example 20
                 */
                limit?: number;
                /**
                 * @description Returns only animals with this status.
                 * @example available
                 */
                status?: components["schemas"]["PetStatus"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page of animals. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": 1,
                     *         "name": "Gus",
                     *         "categoryId": 8,
                     *         "status": "available"
                     *       },
                     *       {
                     *         "id": 2,
                     *         "name": "Daisy",
                     *         "categoryId": 2,
                     *         "status": "available"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["Pets"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createPet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Rex",
                 *       "categoryId": 3,
                 *       "status": "pending"
                 *     }
                 */
                "application/json": components["schemas"]["NewPet"];
            };
        };
        responses: {
            /** @description Animal added; the body carries the assigned `id`. */
            201: {
                headers: {
                    /** @description Path of the new animal, `/v1/pets/{id}`. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 51,
                     *       "name": "Rex",
                     *       "categoryId": 3,
                     *       "status": "pending"
                     *     }
                     */
                    "application/json": components["schemas"]["Pet"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The request body is larger than 1 MiB (`x-max-body-bytes`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "payload_too_large",
                     *       "message": "The request body is larger than 1048576 bytes.",
                     *       "status": 413
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is not sent as `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "unsupported_media_type",
                     *       "message": "Send the body as JSON with `Content-Type: application/json`.",
                     *       "status": 415
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The identifier of the animal.
                 * @example 1
                 */
                petId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The requested animal. */
            200: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 1,
                     *       "name": "Gus",
                     *       "categoryId": 8,
                     *       "status": "available"
                     *     }
                     */
                    "application/json": components["schemas"]["Pet"];
                };
            };
            400: components["responses"]["GetPetBadRequest"];
            401: components["responses"]["GetPetUnauthorized"];
            /** @description The requested resource could not be found. */
            404: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "not_found",
                     *       "message": "No animal has the id 99999.",
                     *       "status": 404
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The operation has been removed (the request came after its sunset). */
            410: {
                headers: {
                    Sunset: components["headers"]["Sunset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": "gone",
                     *       "message": "getPet was removed on 5 December 2030; use GET /v1/pets with the status filter.",
                     *       "status": 410
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["GetPetTooManyRequests"];
            500: components["responses"]["GetPetInternalError"];
            503: components["responses"]["GetPetServiceUnavailable"];
        };
    };
}
