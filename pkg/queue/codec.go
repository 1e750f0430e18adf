package queue

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDecodedBytes bounds the JSON a message body may unzip to, so a hostile
// body cannot exhaust memory.
const MaxDecodedBytes = 1 << 20

// Encode is the body of a message carrying v: its JSON, gzipped, in base64.
// SQS takes only some Unicode in a body (fauxqs nothing beyond U+FFFD) and
// at most 256 KiB; base64 is plain ASCII, and gzip keeps the largest
// payloads (50 inventory items of 255-character fields) well under the
// limit.
func Encode(v any) (string, error) {
	var b bytes.Buffer
	b64 := base64.NewEncoder(base64.StdEncoding, &b)
	zw := gzip.NewWriter(b64)
	if err := json.NewEncoder(zw).Encode(v); err != nil {
		return "", fmt.Errorf("encode message: %w", err)
	}
	if err := errors.Join(zw.Close(), b64.Close()); err != nil {
		return "", fmt.Errorf("compress message: %w", err)
	}
	return b.String(), nil
}

// Decode reads a body made by Encode into v.
func Decode(body string, v any) error {
	zr, err := gzip.NewReader(base64.NewDecoder(base64.StdEncoding, strings.NewReader(body)))
	if err != nil {
		return fmt.Errorf("decode message: %w", err)
	}
	if err := json.NewDecoder(io.LimitReader(zr, MaxDecodedBytes)).Decode(v); err != nil {
		return fmt.Errorf("decode message: %w", err)
	}
	return nil
}

// Plain is the body of a message carrying v as plain JSON, for the queues
// outside parties read and write (the channel queues): every character
// beyond ASCII is written as a \u escape (a surrogate pair beyond U+FFFF),
// which any JSON reader decodes and every SQS implementation accepts.
func Plain(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encode message: %w", err)
	}
	var out strings.Builder
	for _, r := range string(b) {
		switch {
		case r < utf8.RuneSelf:
			out.WriteRune(r)
		case r > 0xFFFF:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&out, `\u%04x\u%04x`, hi, lo)
		default:
			fmt.Fprintf(&out, `\u%04x`, r)
		}
	}
	return out.String(), nil
}
