package connectors

import (
	"net/http"
	"testing"
)

// TestJSONRequest: a body is JSON with its Content-Type, over the header given or none; no
// body leaves the header as it is; a value JSON cannot hold is an error.
func TestJSONRequest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name            string
		header          http.Header
		in              any
		wantBody, wantT string
		wantErr         bool
	}{
		{"body", http.Header{"Accept": {"application/json"}}, map[string]int{"q": 1}, `{"q":1}`, "application/json", false},
		{"body, no header", nil, []int{1}, `[1]`, "application/json", false},
		{"no body", http.Header{"Accept": {"application/json"}}, nil, "", "", false},
		{"not JSON", nil, func() {}, "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := JSONRequest(http.MethodPost, "https://channel.example/x", tt.header, tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want one: %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if string(got.Body) != tt.wantBody || got.Header.Get("Content-Type") != tt.wantT {
				t.Errorf("body %q, Content-Type %q; want %q, %q", got.Body, got.Header.Get("Content-Type"), tt.wantBody, tt.wantT)
			}
			if got.Method != http.MethodPost || got.URL != "https://channel.example/x" {
				t.Errorf("got %s %s", got.Method, got.URL)
			}
		})
	}
}
