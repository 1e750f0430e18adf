package main

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
)

// TestStackFileLive: a stack file counts as a running stack only when its
// process exists and its API answers; a pid that is gone, or alive but
// not serving the API (a zombie, a reused pid), is a stale file.
func TestStackFileLive(t *testing.T) {
	t.Parallel()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(api.Close)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/v1"
	_ = l.Close()
	for _, c := range []struct {
		name string
		s    stackFile
		want bool
	}{
		{"serving", stackFile{PID: os.Getpid(), APIURL: api.URL + "/v1"}, true},
		{"alive, API silent", stackFile{PID: os.Getpid(), APIURL: closed}, false},
		{"no pid", stackFile{APIURL: api.URL + "/v1"}, false},
		{"pid gone", stackFile{PID: 1 << 30, APIURL: api.URL + "/v1"}, false},
		{"no API url", stackFile{PID: os.Getpid()}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := c.s.live(); got != c.want {
				t.Errorf("live() = %v, want %v", got, c.want)
			}
		})
	}
}
