package sdkhttp

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
)

// sdkBody is a request body as the SDK makes it: WriteTo answers io.EOF once it is closed,
// and the caller closes it when the response headers arrive. Its WriteTo waits for that
// close, so the race net/http loses on a loaded machine happens every time.
type sdkBody struct {
	r      *bytes.Reader
	once   sync.Once
	closed chan struct{}
}

func (b *sdkBody) Read(p []byte) (int, error) { return b.r.Read(p) }

func (b *sdkBody) WriteTo(w io.Writer) (int64, error) {
	select {
	case <-b.closed:
		return 0, io.EOF
	case <-time.After(5 * time.Second):
		return b.r.WriteTo(w)
	}
}

func (b *sdkBody) Close() error {
	b.once.Do(func() { close(b.closed) })
	return nil
}

// TestGuardKeepsTheAnswer: a response read after the SDK closed its request body arrives
// whole through a guarded client.
func TestGuardKeepsTheAnswer(t *testing.T) {
	t.Parallel()
	const chunks, size = 50, 10 << 10
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		chunk := bytes.Repeat([]byte("x"), size)
		for range chunks {
			_, _ = w.Write(chunk)
			w.(http.Flusher).Flush()
			time.Sleep(2 * time.Millisecond)
		}
	}))
	t.Cleanup(srv.Close)
	tests := []struct {
		name   string
		client aws.HTTPClient
	}{
		{"the SDK's client, guarded", New()},
		{"a client with a timeout, guarded", Guard(awshttp.NewBuildableClient().WithTimeout(10 * time.Second))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			payload := []byte(`{"TableName":"t"}`)
			body := &sdkBody{r: bytes.NewReader(payload), closed: make(chan struct{})}
			req, err := http.NewRequest(http.MethodPost, srv.URL, body)
			if err != nil {
				t.Fatal(err)
			}
			req.ContentLength = int64(len(payload))
			resp, err := tt.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			_ = req.Body.Close() // as the SDK does once Do returns
			got, err := io.ReadAll(resp.Body)
			if err != nil || len(got) != chunks*size {
				t.Errorf("read %d of %d bytes of the answer: %v", len(got), chunks*size, err)
			}
		})
	}
}
