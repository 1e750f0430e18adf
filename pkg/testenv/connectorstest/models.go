package connectorstest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/multisell/multisell/pkg/testenv"
)

// Models are a marketplace's official OpenAPI documents beside the repository
// (testenv.ChannelModel) as routers, loaded once per test binary, against which a
// connector's tests check the calls it made and the sandbox's answers.
type Models struct {
	// API is the marketplace's production URL: every document's server, and where the
	// paths checked are sent.
	API string
	// Files are the documents' names, each with the path prefix it serves ("": any path).
	Files map[string]string
	// Fix, when set, mends a document once loaded.
	Fix func(*openapi3.T)

	mu     sync.Mutex
	loaded map[string]routers.Router // by path prefix
}

// Load loads the documents (once per test binary) in a subtest that skips, saying so, when
// they are not beside the repository. It returns whether they are loaded.
func (m *Models) Load(t *testing.T) bool {
	t.Helper()
	ok := false
	t.Run("models", func(t *testing.T) {
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.loaded == nil {
			loaded := map[string]routers.Router{}
			for name, prefix := range m.Files {
				file := testenv.ChannelModel(t, name)
				doc, err := openapi3.NewLoader().LoadFromFile(file)
				if err != nil {
					t.Fatalf("load %s: %v", file, err)
				}
				if m.Fix != nil {
					m.Fix(doc)
				}
				doc.Servers = openapi3.Servers{{URL: m.API + prefix}}
				r, err := gorillamux.NewRouter(doc)
				if err != nil {
					t.Fatalf("route %s: %v", file, err)
				}
				loaded[name] = r
			}
			m.loaded = loaded
		}
		ok = true
	})
	return ok
}

// ValidateRequest checks a request the sandbox got (its URL a path and query, its body
// given apart) against the documents: an operation of theirs, its parameters and body. It
// returns what ValidateAnswer checks the answer against.
func (m *Models) ValidateRequest(r *http.Request, body []byte) (*openapi3filter.RequestValidationInput, error) {
	req := r.Clone(context.Background())
	u, err := url.Parse(m.API + r.URL.RequestURI())
	if err != nil {
		return nil, err
	}
	req.URL, req.Host = u, u.Host
	req.Body = io.NopCloser(bytes.NewReader(body))
	m.mu.Lock()
	defer m.mu.Unlock()
	err = fmt.Errorf("no document has the path")
	for name, router := range m.loaded {
		if !strings.HasPrefix(r.URL.Path, m.Files[name]) {
			continue
		}
		route, params, ferr := router.FindRoute(req)
		if ferr != nil {
			err = ferr
			continue
		}
		opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true}
		in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
		if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
			return in, fmt.Errorf("request: %w", err)
		}
		return in, nil
	}
	return nil, fmt.Errorf("not an operation of the documents: %w", err)
}

// ValidateAnswer checks an answer of status, with header and body, to the request of in
// against its operation's responses.
func ValidateAnswer(in *openapi3filter.RequestValidationInput, status int, header http.Header, body []byte) error {
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: status, Header: header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}}
	out.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		return fmt.Errorf("answer %d: %w", status, err)
	}
	return nil
}
