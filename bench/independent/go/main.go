// The pet store interface on Go's net/http alone, written from the interface alone.
//
// Run: PORT=8000 API_KEY=k [FAULT=name] ./petstore. FAULT selects one fault (README.md).
// Open choices made here, the Go way: ids are snowflakes (milliseconds << 22 | sequence), int64s far
// beyond 2^53; `limit`, `status` and `petId` are parsed by strconv (`+7` is 7) and refused with 400
// when they do not parse or are out of range; body keys are matched exactly and each field decoded
// into its Go type, so `5.0` is no int64 (400); a body not sent as JSON is 415, one over 1 MiB 413;
// responses say `application/json; charset=utf-8` and carry `Cache-Control: no-store`.
package main

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"math"
	"mime"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

var (
	fault    = os.Getenv("FAULT")
	apiKey   = os.Getenv("API_KEY")
	statuses = map[string]bool{"available": true, "pending": true, "sold": true}
	epoch    = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	sunset   = time.Date(2030, 12, 5, 0, 0, 0, 0, time.UTC)
)

type Pet struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	CategoryID int64  `json:"categoryId"`
	Status     string `json:"status"`
}

type store struct {
	mu     sync.Mutex
	pets   []*Pet // in creation order, so in ascending id order
	byID   map[int64]*Pet
	lastID int64
}

func (s *store) add(p Pet) Pet {
	s.mu.Lock()
	defer s.mu.Unlock()
	if fault == "ms-ids" {
		p.ID = time.Now().UnixMilli()
	} else {
		p.ID = time.Since(epoch).Milliseconds() << 22
		if p.ID <= s.lastID {
			p.ID = s.lastID + 1
		}
		s.lastID = p.ID
	}
	if old, ok := s.byID[p.ID]; ok {
		*old = p // the same key: the later create overwrites the earlier pet
	} else {
		s.pets = append(s.pets, &p)
	}
	s.byID[p.ID] = &p
	return p
}

func (s *store) list(status string, limit int) []Pet {
	s.mu.Lock()
	defer s.mu.Unlock()
	page := []Pet{}
	for _, p := range s.pets {
		if len(page) < limit && (status == "" || p.Status == status) {
			page = append(page, *p)
		}
	}
	return page
}

func (s *store) get(id int64) (Pet, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.byID[id]
	if !ok {
		return Pet{}, false
	}
	return *p, true
}

var pets = &store{byID: map[int64]*Pet{}}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		log.Print(err)
	}
}

func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	code := strings.ReplaceAll(strings.ToLower(http.StatusText(status)), " ", "_")
	bodyStatus := status
	if fault == "error-status-const" {
		bodyStatus = http.StatusBadRequest
	}
	writeJSON(w, status, map[string]any{"code": code, "message": fmt.Sprintf(format, args...), "status": bodyStatus})
}

func authenticated(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if accept := r.Header.Get("Accept"); fault == "accept-exact" && accept != "" && accept != "application/json" {
			writeError(w, http.StatusNotAcceptable, "This service answers application/json only.")
			return
		}
		auth := r.Header.Get("Authorization")
		if len(auth) < 7 || !strings.EqualFold(auth[:7], "Bearer ") || subtle.ConstantTimeCompare([]byte(auth[7:]), []byte(apiKey)) != 1 {
			w.Header().Set("WWW-Authenticate", "Bearer")
			if fault == "text-401" {
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
			writeError(w, http.StatusUnauthorized, "Missing or invalid API key: send `Authorization: Bearer <API_KEY>`.")
			return
		}
		next(w, r)
	}
}

func listPets(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit := 20
	if raw, ok := q["limit"]; ok {
		n, err := strconv.Atoi(raw[0])
		if err != nil || n < 1 || (n > 100 && fault != "limit-uncapped") {
			writeError(w, http.StatusBadRequest, "limit: an integer from 1 to 100, not %q", raw[0])
			return
		}
		limit = n
	}
	status := q.Get("status")
	if _, ok := q["status"]; ok && !statuses[status] {
		writeError(w, http.StatusBadRequest, "status: one of available, pending, sold, not %q", status)
		return
	}
	page := pets.list(status, limit)
	if fault == "sniffed-ctype" {
		body, _ := json.Marshal(page)
		w.Write(body)
		return
	}
	writeJSON(w, http.StatusOK, page)
}

// field decodes the member key of a JSON object into dst: an error when it is absent, null or not of dst's type.
func field(obj map[string]json.RawMessage, key string, dst any) error {
	raw, ok := obj[key]
	if !ok {
		return fmt.Errorf("%s: required", key)
	}
	if string(raw) == "null" {
		return fmt.Errorf("%s: must not be null", key)
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return fmt.Errorf("%s: %v", key, err)
	}
	return nil
}

func decodeNewPet(body []byte) (Pet, error) {
	var p Pet
	switch fault {
	case "case-insensitive-keys":
		var in struct {
			Name       *string `json:"name"`
			CategoryID *int64  `json:"categoryId"`
			Status     *string `json:"status"`
		}
		if err := json.Unmarshal(body, &in); err != nil {
			return p, err
		}
		if in.Name == nil || in.CategoryID == nil {
			return p, errors.New("name and categoryId are required")
		}
		p.Name, p.CategoryID = *in.Name, *in.CategoryID
		if in.Status != nil {
			p.Status = *in.Status
		}
	case "int64-via-float64":
		var in map[string]any
		if err := json.Unmarshal(body, &in); err != nil {
			return p, err
		}
		name, okName := in["name"].(string)
		category, okCategory := in["categoryId"].(float64)
		if !okName || !okCategory || category != math.Trunc(category) {
			return p, errors.New("name and categoryId (an integer) are required")
		}
		p.Name, p.CategoryID = name, int64(category)
		if status, ok := in["status"].(string); ok {
			p.Status = status
		}
	default:
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(body, &obj); err != nil || obj == nil {
			return p, errors.New("the body must be a JSON object (NewPet)")
		}
		if err := field(obj, "name", &p.Name); err != nil {
			return p, err
		}
		if err := field(obj, "categoryId", &p.CategoryID); err != nil && !(fault == "missing-categoryid-zero" && obj["categoryId"] == nil) {
			return p, err
		}
		if fault == "zero-as-missing" && (p.Name == "" || p.CategoryID == 0) {
			return p, errors.New("name and categoryId are required")
		}
		if fault == "nil-status-panic" {
			var status *string
			if _, ok := obj["status"]; ok {
				status = new(string)
				if err := field(obj, "status", status); err != nil {
					return p, err
				}
			}
			p.Status = *status
		} else if _, ok := obj["status"]; ok {
			if err := field(obj, "status", &p.Status); err != nil {
				return p, err
			}
		}
	}
	if p.Status == "" {
		p.Status = "available"
	} else if !statuses[p.Status] {
		return p, fmt.Errorf("status: one of available, pending, sold, not %q", p.Status)
	}
	return p, nil
}

func createPet(w http.ResponseWriter, r *http.Request) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		writeError(w, http.StatusUnsupportedMediaType, "Send the body as JSON with `Content-Type: application/json`.")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		writeError(w, http.StatusRequestEntityTooLarge, "The body is larger than %d bytes.", tooLarge.Limit)
		return
	} else if err != nil {
		writeError(w, http.StatusBadRequest, "The body could not be read: %v", err)
		return
	}
	p, err := decodeNewPet(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	p = pets.add(p)
	if fault == "first-word-crash" {
		go func(name string) { log.Printf("audit: created %s", name[:strings.Index(name, " ")]) }(p.Name)
	}
	w.Header().Set("Location", fmt.Sprintf("/v1/pets/%d", p.ID))
	writeJSON(w, http.StatusCreated, p)
}

func deprecationNotice(h http.Header) {
	h.Set("Deprecation", "@1748736000")
	h.Set("Sunset", sunset.Format(http.TimeFormat))
	if fault == "link-no-brackets" {
		h.Set("Link", `/v1/pets; rel="successor-version"`)
	} else {
		h.Set("Link", `</v1/pets>; rel="successor-version"`)
	}
}

// deprecated puts getPet's deprecation notice on every answer of the operation, its errors too.
func deprecated(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if fault != "headers-only-on-200" {
			deprecationNotice(w.Header())
		}
		next(w, r)
	}
}

func getPet(w http.ResponseWriter, r *http.Request) {
	raw := strings.TrimPrefix(r.URL.Path, "/v1/pets/")
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		writeError(w, http.StatusBadRequest, "petId: an int64, not %q", raw)
		return
	}
	p, ok := pets.get(id)
	if !ok {
		writeError(w, http.StatusNotFound, "No animal has the id %d.", id)
		return
	}
	if fault == "headers-only-on-200" {
		deprecationNotice(w.Header())
	}
	writeJSON(w, http.StatusOK, p)
}

func methods(byMethod map[string]http.HandlerFunc, allow string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if h, ok := byMethod[r.Method]; ok {
			h(w, r)
			return
		}
		w.Header().Set("Allow", allow)
		writeError(w, http.StatusMethodNotAllowed, "%s is not allowed here; use %s.", r.Method, allow)
	}
}

func main() {
	seed, _ := strconv.Atoi(os.Getenv("SEED_PETS"))
	if os.Getenv("SEED_PETS") == "" {
		seed = 30
	}
	for n := 0; n < seed; n++ {
		pets.add(Pet{Name: fmt.Sprintf("Seed %d", n), CategoryID: int64(1 + n%9), Status: []string{"available", "pending", "sold"}[n%3]})
	}
	list := authenticated(listPets)
	if fault == "list-no-auth" {
		list = listPets
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/pets", methods(map[string]http.HandlerFunc{"GET": list, "POST": authenticated(createPet)}, "GET, POST"))
	mux.HandleFunc("/v1/pets/", deprecated(methods(map[string]http.HandlerFunc{"GET": authenticated(getPet)}, "GET")))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "No operation has the path %s.", r.URL.Path)
	})
	server := &http.Server{Addr: "127.0.0.1:" + os.Getenv("PORT"), Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(server.ListenAndServe())
}
