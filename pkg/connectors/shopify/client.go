package shopify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
)

// throttleAttempts bounds the THROTTLED answers one call goes through (each waits for the
// points the shop says it lacks) before it is put off as *connectors.Throttled.
const throttleAttempts = 4

// envelope is a GraphQL answer: data, errors, and the cost extension.
type envelope struct {
	Data       json.RawMessage `json:"data"`
	Errors     json.RawMessage `json:"errors"`
	Extensions struct {
		Cost *struct {
			RequestedQueryCost float64 `json:"requestedQueryCost"`
			ActualQueryCost    float64 `json:"actualQueryCost"`
			ThrottleStatus     struct {
				MaximumAvailable   float64 `json:"maximumAvailable"`
				CurrentlyAvailable float64 `json:"currentlyAvailable"`
				RestoreRate        float64 `json:"restoreRate"`
			} `json:"throttleStatus"`
		} `json:"cost"`
	} `json:"extensions"`
}

// gqlError is one GraphQL error.
type gqlError struct {
	Message    string `json:"message"`
	Extensions struct {
		Code string `json:"code"`
	} `json:"extensions"`
}

// AnswerError is an answer of Shopify the connector could not use: a GraphQL error, a
// status other than 200, or a body that is not the answer asked for. Its message says which.
type AnswerError struct {
	Status int
	// Codes are the GraphQL errors' codes, when it had some.
	Codes   []string
	Message string
}

// Error implements the error interface.
func (e *AnswerError) Error() string { return "shopify: " + e.Message }

// decodeEnvelope reads a GraphQL answer; errors are its GraphQL errors (a list of errors, or
// the one message Shopify gives as a string), nil when it has none.
func decodeEnvelope(body []byte) (envelope, []gqlError, error) {
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil {
		return envelope{}, nil, &AnswerError{Status: http.StatusOK, Message: "the answer is not JSON: " + err.Error()}
	}
	var list []gqlError
	switch e := bytes.TrimSpace(env.Errors); {
	case len(e) == 0 || bytes.Equal(e, []byte("null")):
	case e[0] == '"':
		var msg string
		_ = json.Unmarshal(e, &msg)
		list = []gqlError{{Message: msg}}
	default:
		if err := json.Unmarshal(e, &list); err != nil {
			return envelope{}, nil, &AnswerError{Status: http.StatusOK, Message: "the answer's errors are not a list: " + err.Error()}
		}
		if len(list) == 0 {
			list = nil
		}
	}
	return env, list, nil
}

// endpoint is the GraphQL endpoint of the channel: its API endpoint, else the shop's host.
func endpoint(s *connectors.Session) string {
	base := s.Endpoints.API
	if base == "" {
		base = "https://" + s.Credentials.(credentials).ShopDomain
	}
	return strings.TrimSuffix(base, "/") + "/admin/api/" + Version + "/graphql.json"
}

// call sends a GraphQL query of the given requested cost (queryCost) with its variables
// and decodes its data into out. Each answer's throttleStatus becomes the shop's shared
// bucket; a THROTTLED answer waits for the points and asks again (put off as
// *connectors.Throttled when they are further than the runtime waits). A 401 on a Dev
// Dashboard app's token renews it and asks once more. 401 and 403 are a
// *connectors.AuthError; MAX_COST_EXCEEDED an *AnswerError whose costExceeded is true; any
// other failure an *AnswerError, logged.
func call(ctx context.Context, s *connectors.Session, query string, vars map[string]any, cost int, out any) error {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return err
	}
	req := connectors.Request{Method: http.MethodPost, URL: endpoint(s), Body: body, Header: http.Header{"Content-Type": {"application/json"}}}
	auth := &authorizer{s: s}
	if err := auth.set(ctx, req.Header); err != nil {
		return err
	}
	for range throttleAttempts {
		resp, err := s.CallCost(ctx, opGraphQL, cost, req)
		if err != nil {
			return err
		}
		if resp.Status == http.StatusUnauthorized {
			again, err := auth.renew(ctx, req.Header)
			if err != nil {
				return err
			}
			if again {
				continue
			}
		}
		data, throttled, err := answer(ctx, s, resp, cost)
		if throttled {
			continue
		}
		if err != nil {
			var ae *AnswerError
			if errors.As(err, &ae) {
				slog.WarnContext(ctx, "shopify answer refused", "account", s.Account, "channel", s.Channel,
					"status", ae.Status, "codes", ae.Codes, "error", s.Clean(ae.Message))
			}
			return err
		}
		if err := json.Unmarshal(data, out); err != nil {
			err = &AnswerError{Status: resp.Status, Message: "the answer's data is not what was asked: " + err.Error()}
			slog.WarnContext(ctx, "shopify answer refused", "account", s.Account, "channel", s.Channel, "error", s.Clean(err.Error()))
			return err
		}
		return nil
	}
	return &connectors.Throttled{Op: opGraphQL, RetryAt: time.Now().Add(time.Second)}
}

// costExceeded reports whether err is Shopify's MAX_COST_EXCEEDED: the query asked more
// than a single query may, whatever the bucket holds.
func costExceeded(err error) bool {
	var ae *AnswerError
	return errors.As(err, &ae) && slices.Contains(ae.Codes, codeMaxCost)
}

// codeMaxCost is the code of the error of a query over maxQueryCost.
const codeMaxCost = "MAX_COST_EXCEEDED"

// answer judges a response to a query we reckoned cost points: its data, or throttled (the
// shop's bucket reported, ask again), or the error it is. The shop's own requested and
// actual costs are logged, with a warning when its requested cost is not ours.
func answer(ctx context.Context, s *connectors.Session, resp *connectors.Response, cost int) (json.RawMessage, bool, error) {
	switch {
	case resp.Status == http.StatusUnauthorized || resp.Status == http.StatusForbidden:
		_, list, _ := decodeEnvelope(resp.Body)
		msg := fmt.Sprintf("status %d", resp.Status)
		if len(list) > 0 {
			msg = list[0].Message
		}
		return nil, false, &connectors.AuthError{Message: msg}
	case resp.Status != http.StatusOK:
		return nil, false, &AnswerError{Status: resp.Status, Message: fmt.Sprintf("status %d: %s", resp.Status, clip(resp.Body))}
	}
	env, list, err := decodeEnvelope(resp.Body)
	if err != nil {
		return nil, false, err
	}
	if c := env.Extensions.Cost; c != nil {
		level := slog.LevelDebug
		if int(c.RequestedQueryCost) != cost {
			level = slog.LevelWarn // our reckoning is not the shop's: docs/connectors.md, Shopify cost
		}
		slog.Log(ctx, level, "shopify query cost", "channel", s.Channel, "reckoned", cost,
			"requested", c.RequestedQueryCost, "actual", c.ActualQueryCost)
		st := connectors.CostStatus{Maximum: c.ThrottleStatus.MaximumAvailable,
			Available: c.ThrottleStatus.CurrentlyAvailable, Restore: c.ThrottleStatus.RestoreRate}
		if err := s.ReportCost(ctx, opGraphQL, st); err != nil {
			return nil, false, err
		}
	}
	if len(list) > 0 {
		ae := &AnswerError{Status: resp.Status}
		var msgs []string
		for _, e := range list {
			if e.Extensions.Code == "THROTTLED" {
				if env.Extensions.Cost == nil {
					// No bucket stated to wait on: put off.
					return nil, false, &connectors.Throttled{Op: opGraphQL, RetryAt: time.Now().Add(time.Second)}
				}
				return nil, true, nil
			}
			ae.Codes = append(ae.Codes, e.Extensions.Code)
			msgs = append(msgs, e.Message)
		}
		ae.Message = strings.Join(msgs, "; ")
		return nil, false, ae
	}
	if len(env.Data) == 0 || bytes.Equal(env.Data, []byte("null")) {
		return nil, false, &AnswerError{Status: resp.Status, Message: "the answer has no data"}
	}
	return env.Data, false, nil
}

// clip is the start of a body, for a message.
func clip(b []byte) string {
	const n = 200
	if len(b) > n {
		return strings.ToValidUTF8(string(b[:n]), "") + "..."
	}
	return string(b)
}
