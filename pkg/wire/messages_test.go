package wire

import (
	"encoding/json"
	"testing"
)

// TestHeaderFirst: a message embedding Header starts with its four fields,
// in the documented order.
func TestHeaderFirst(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(struct {
		Header
		Rest int `json:"rest"`
	}{Header{Type: "x.y", AccountID: "a", ChannelUUID: "c", ChannelType: "T"}, 1})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"type":"x.y","account_id":"a","channel_uuid":"c","channel_type":"T","rest":1}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
