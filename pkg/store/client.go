package store

import (
	"context"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
)

// Metering is a dynamodb client option that asks every call for its
// consumed capacity and records the call in the context's Meter.
func Metering(o *dynamodb.Options) {
	o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error {
		return s.Initialize.Add(middleware.InitializeMiddlewareFunc("multisell.meter",
			func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				askCapacity(in.Parameters)
				out, md, err := next.HandleInitialize(ctx, in)
				if m := MeterFrom(ctx); m != nil {
					read, write := consumed(out.Result)
					m.record(awsmiddleware.GetOperationName(ctx), read, write)
				}
				return out, md, err
			}), middleware.After)
	})
}

const total = types.ReturnConsumedCapacityTotal

func askCapacity(p any) {
	switch in := p.(type) {
	case *dynamodb.GetItemInput:
		in.ReturnConsumedCapacity = total
	case *dynamodb.PutItemInput:
		in.ReturnConsumedCapacity = total
	case *dynamodb.UpdateItemInput:
		in.ReturnConsumedCapacity = total
	case *dynamodb.DeleteItemInput:
		in.ReturnConsumedCapacity = total
	case *dynamodb.QueryInput:
		in.ReturnConsumedCapacity = total
	case *dynamodb.BatchGetItemInput:
		in.ReturnConsumedCapacity = total
	case *dynamodb.BatchWriteItemInput:
		in.ReturnConsumedCapacity = total
	case *dynamodb.TransactGetItemsInput:
		in.ReturnConsumedCapacity = total
	case *dynamodb.TransactWriteItemsInput:
		in.ReturnConsumedCapacity = total
	}
}

// consumed returns the read and write units an output reports.
func consumed(res any) (read, write float64) {
	var list []types.ConsumedCapacity
	isWrite := false
	switch out := res.(type) {
	case *dynamodb.GetItemOutput:
		list = one(out.ConsumedCapacity)
	case *dynamodb.QueryOutput:
		list = one(out.ConsumedCapacity)
	case *dynamodb.PutItemOutput:
		list, isWrite = one(out.ConsumedCapacity), true
	case *dynamodb.UpdateItemOutput:
		list, isWrite = one(out.ConsumedCapacity), true
	case *dynamodb.DeleteItemOutput:
		list, isWrite = one(out.ConsumedCapacity), true
	case *dynamodb.BatchGetItemOutput:
		list = out.ConsumedCapacity
	case *dynamodb.TransactGetItemsOutput:
		list = out.ConsumedCapacity
	case *dynamodb.BatchWriteItemOutput:
		list, isWrite = out.ConsumedCapacity, true
	case *dynamodb.TransactWriteItemsOutput:
		list, isWrite = out.ConsumedCapacity, true
	}
	for _, c := range list {
		if c.CapacityUnits == nil {
			continue
		}
		if isWrite {
			write += *c.CapacityUnits
		} else {
			read += *c.CapacityUnits
		}
	}
	return read, write
}

func one(c *types.ConsumedCapacity) []types.ConsumedCapacity {
	if c == nil {
		return nil
	}
	return []types.ConsumedCapacity{*c}
}
