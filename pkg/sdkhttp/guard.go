// Package sdkhttp holds what every AWS SDK client of multisell needs from its HTTP client.
package sdkhttp

import (
	"io"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
)

// Guard returns c with every request body offering only Read and Close.
//
// The SDK hands net/http a body that answers WriteTo with io.EOF once the SDK has closed it,
// and it closes it as soon as the response headers arrive. net/http writes a body it cannot
// tell is in memory straight to the socket, then makes one more copy from it to see that
// nothing follows the Content-Length; when the server answered first (a local emulator, a
// loaded machine), that copy goes through WriteTo, gets io.EOF as an error, and net/http
// closes the connection while the response body is still being read. The SDK then retries the
// call, so a ReceiveMessage loses the messages its first attempt took, and a conditional
// UpdateItem fails on the change its first attempt made. Through Read, a closed body is an
// ordinary end (docs/decisions.md, "The SDK's HTTP client").
func Guard(c aws.HTTPClient) aws.HTTPClient { return guard{c} }

// New is Guard over the SDK's default HTTP client.
func New() aws.HTTPClient { return Guard(awshttp.NewBuildableClient()) }

type guard struct{ c aws.HTTPClient }

// Do implements aws.HTTPClient.
func (g guard) Do(r *http.Request) (*http.Response, error) {
	if r.Body != nil && r.Body != http.NoBody {
		r.Body = readCloser{r.Body}
	}
	return g.c.Do(r)
}

// readCloser hides every method of a body but Read and Close.
type readCloser struct{ io.ReadCloser }
