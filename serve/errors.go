package serve

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/cairnmem/cairn/extract"
	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// apiError is the one shape of every error the API returns.
type apiError struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// statusOf is the one place errors become HTTP statuses and codes.
func statusOf(err error) (int, string) {
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return http.StatusRequestEntityTooLarge, "too_large"
	case errors.Is(err, extract.ErrSecret):
		return http.StatusUnprocessableEntity, "secret"
	case errors.Is(err, schema.ErrInvalid):
		return http.StatusUnprocessableEntity, "invalid"
	case errors.Is(err, ErrBadRequest), errors.Is(err, schema.ErrBadURI), errors.Is(err, vault.ErrUnsafePath):
		return http.StatusBadRequest, "bad_request"
	case errors.Is(err, ErrNotFound), errors.Is(err, vault.ErrNotFound), errors.Is(err, index.ErrNotIndexed):
		return http.StatusNotFound, "not_found"
	case errors.Is(err, ErrConflict):
		return http.StatusConflict, "conflict"
	case errors.Is(err, vault.ErrLocked), errors.Is(err, index.ErrLocked):
		return http.StatusServiceUnavailable, "locked"
	}
	return http.StatusInternalServerError, "internal"
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	var e apiError
	e.Error.Code, e.Error.Message = code, msg
	writeJSON(w, status, e)
}

func writeErr(w http.ResponseWriter, err error) {
	status, code := statusOf(err)
	writeError(w, status, code, err.Error())
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}
