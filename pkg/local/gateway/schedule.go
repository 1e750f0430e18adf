package gateway

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/google/uuid"

	"github.com/multisell/multisell/pkg/local/template"
)

// ScheduleHandler is the handler of a function run on a schedule.
type ScheduleHandler = func(context.Context, events.EventBridgeEvent) error

// scheduleSource is a function's Schedule event: the handler invoked every Rate.
type scheduleSource struct {
	fn      *template.Function
	event   template.ScheduleEvent
	handler ScheduleHandler
}

// addSchedules prepares a schedule for every enabled Schedule event.
func (p *Pollers) addSchedules(lookup Lookup) error {
	tpl := p.stack.Template()
	for i := range tpl.Functions {
		fn := &tpl.Functions[i]
		for _, ev := range fn.ScheduleEvents {
			if !ev.Enabled {
				continue
			}
			h, err := lookup(fn.Folder)
			if err != nil {
				return fmt.Errorf("pollers: handler of %s: %w", fn.LogicalID, err)
			}
			sh, ok := h.(ScheduleHandler)
			if !ok {
				return fmt.Errorf("pollers: %s (%s) has a Schedule event but its handler is a %T", fn.LogicalID, fn.Folder, h)
			}
			p.schedules = append(p.schedules, &scheduleSource{fn: fn, event: ev, handler: sh})
		}
	}
	return nil
}

// runSchedule invokes s's handler every Rate (as EventBridge does, the first time one Rate
// after the start) until ctx ends.
func (p *Pollers) runSchedule(ctx context.Context, s *scheduleSource) {
	t := time.NewTicker(s.event.Rate)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			ev := events.EventBridgeEvent{
				Version: "0", ID: uuid.NewString(), DetailType: "Scheduled Event", Source: "aws.events",
				AccountID: p.stack.AccountID, Time: now.UTC(), Region: p.stack.Region,
				Resources: []string{fmt.Sprintf("arn:aws:events:%s:%s:rule/%s-%s", p.stack.Region, p.stack.AccountID, s.fn.LogicalID, s.event.Name)},
			}
			handler := func(ctx context.Context, ev events.EventBridgeEvent) (struct{}, error) {
				return struct{}{}, s.handler(ctx, ev)
			}
			if _, err := invoke(ctx, s.fn, p.stack.Region, p.stack.AccountID, handler, ev); err != nil {
				p.log.Error("scheduled function failed", "function", s.fn.LogicalID, "error", err.Error())
			}
		}
	}
}
