package webhooks

import (
	"slices"
	"time"

	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/isotime"
)

// Limits of a webhook.
const (
	// MaxWebhooks is how many webhooks an account may have.
	MaxWebhooks = 20
	// maxDescription bounds a description, in characters.
	maxDescription = 500
	// rotationOverlap is how long the previous secret still signs after a
	// rotation, so receivers can switch without missing a delivery.
	rotationOverlap = 24 * time.Hour
)

// NotFoundMessage is the 404 of an unknown webhook.
const NotFoundMessage = "Webhook not found"

// Webhook is a webhook as the API returns it. Secret is shown only when it
// is made (creation and rotation).
type Webhook struct {
	ID          string   `json:"id" dynamodbav:"id"`
	URL         string   `json:"url" dynamodbav:"url"`
	Events      []string `json:"events" dynamodbav:"events"`
	Description *string  `json:"description" dynamodbav:"description"`
	Active      bool     `json:"active" dynamodbav:"active"`
	Secret      string   `json:"secret,omitempty" dynamodbav:"-"`
	CreatedAt   string   `json:"created_at" dynamodbav:"created_at"`
	UpdatedAt   string   `json:"updated_at" dynamodbav:"updated_at"`
}

// hook is a webhook as stored: the API's fields, its secrets and its
// revision (every write is conditioned on the one read).
type hook struct {
	Webhook
	// Key is the current secret; Previous the one it replaced, which also
	// signs until PreviousUntil.
	Key           string `dynamodbav:"secret"`
	Previous      string `dynamodbav:"previous_secret,omitempty"`
	PreviousUntil string `dynamodbav:"previous_until,omitempty"`
	Rev           int64  `dynamodbav:"rev"`
}

// wants reports whether the webhook is to be sent events of type t.
func (h *hook) wants(t string) bool {
	return h.Active && (slices.Contains(h.Events, t) || slices.Contains(h.Events, events.AllTypes))
}

// secrets are the secrets that sign a delivery at now: the current one,
// and the previous one during a rotation's overlap.
func (h *hook) secrets(now time.Time) []string {
	out := []string{h.Key}
	if h.Previous != "" {
		if until, ok := isotime.Parse(h.PreviousUntil); ok && now.Before(until) {
			out = append(out, h.Previous)
		}
	}
	return out
}

// rotate makes secret the current one; the current one signs too for
// rotationOverlap.
func (h *hook) rotate(secret string, now time.Time) {
	h.Previous, h.PreviousUntil = h.Key, isotime.Format(now.Add(rotationOverlap))
	h.Key = secret
}

// apply sets the fields in gives.
func (h *hook) apply(in Input) {
	if in.URL != nil {
		h.URL = *in.URL
	}
	if in.Events != nil {
		h.Events = in.Events
	}
	if in.DescriptionSet {
		h.Description = in.Description
	}
	if in.Active != nil {
		h.Active = *in.Active
	}
}
