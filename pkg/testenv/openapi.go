package testenv

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// spec is docs/openapi.yaml with a router for the local server.
type spec struct {
	router routers.Router
}

var (
	specOnce sync.Once
	specVal  *spec
	specErr  error
)

// loadSpec loads and validates docs/openapi.yaml once per test binary, serving it from
// the local server's URL.
func loadSpec(e *Env) (*spec, error) {
	specOnce.Do(func() {
		file := filepath.Join(e.Root, "docs", "openapi.yaml")
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromFile(file)
		if err != nil {
			specErr = fmt.Errorf("load %s: %w", file, err)
			return
		}
		if err := doc.Validate(loader.Context); err != nil {
			specErr = fmt.Errorf("%s is not a valid OpenAPI document: %w", file, err)
			return
		}
		doc.Servers = openapi3.Servers{{URL: e.URL}}
		router, err := gorillamux.NewRouter(doc)
		if err != nil {
			specErr = fmt.Errorf("route %s: %w", file, err)
			return
		}
		specVal = &spec{router: router}
	})
	return specVal, specErr
}

// notFound is the body of API Gateway's answer to an unknown route.
var notFound = []byte(`{"error":"Not found"}`)

// validateResponse checks a response against the document: the route must be documented
// (an unknown route's 404 excepted) and status, headers and body must match it.
func validateResponse(e *Env, req *http.Request, r *Response) error {
	s, err := loadSpec(e)
	if err != nil {
		return err
	}
	route, params, err := s.router.FindRoute(req)
	if err != nil {
		if r.Status == http.StatusNotFound && bytes.Equal(bytes.TrimSpace(r.Body), notFound) {
			return nil
		}
		return fmt.Errorf("%s %s is not in the document: %w", req.Method, req.URL.Path, err)
	}
	opts := &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}
	input := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route, Options: opts,
		},
		Status:  r.Status,
		Header:  r.Header,
		Options: opts,
	}
	input.SetBodyBytes(r.Body)
	return openapi3filter.ValidateResponse(context.Background(), input)
}
