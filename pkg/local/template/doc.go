// Package template reads the project's AWS SAM template (template.yaml) into a small model:
// the functions with their API, SQS and DynamoDB stream event sources (with their filter
// patterns), the API's authorizer and gateway responses, the DynamoDB table and its stream,
// and the SQS queues. The local stack (pkg/local/gateway) is built from this model, so every
// end-to-end test exercises the template too.
//
// CloudFormation short-form intrinsics (!Ref, !GetAtt, !Sub, ...) are read into their
// long JSON form ({"Ref": ...}, {"Fn::GetAtt": [...]}, ...), so both spellings parse alike.
package template
