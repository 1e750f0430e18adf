// Package gateway is the local stand-in for API Gateway and the Lambda SQS and DynamoDB
// stream event source mappings, built from template.yaml (pkg/local/template):
//
//   - Provision creates the template's DynamoDB table (with its stream) and SQS queues on the
//     emulators and resolves the functions' environment (app.Config);
//   - Gateway is an http.Handler that serves the REST API under /<stage>: it routes by the
//     functions' Api events, runs the REQUEST authorizer (with its result cache), builds
//     the proxy-integration event, invokes the handler in-process and renders the
//     template's gateway responses (404, 401, 413, 5xx) as API Gateway would;
//   - Pollers receive from each queue with an SQS event source and invoke the consumer
//     with batches, honouring partial batch failures; failed messages come back after the
//     visibility timeout and move to the dead-letter queue after maxReceiveCount. They also
//     read the table's stream for each DynamoDB event: shard by shard, parents first, batches
//     of the records that pass the filters, with partial batch failures, bisection, bounded
//     retries and the on-failure record, and checkpoints that may outlive a restart;
//   - ReferencePage is the API reference page the gateway serves on /docs (Options.Docs):
//     docs/openapi.yaml rendered by the pinned Redocly CLI, kept in a file and built again
//     when the document changes.
//
// Events and responses go through JSON on their way in and out, as they do on Lambda.
package gateway
