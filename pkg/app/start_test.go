package app

import (
	"context"
	"testing"
)

// TestLambdaAWSConfig: on AWS a function signs with the credentials Lambda
// puts in its environment and holds its calls to the SDK limits; against
// the emulators it signs with theirs and keeps the SDK's own timeouts.
func TestLambdaAWSConfig(t *testing.T) {
	env := map[string]string{"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "SECRET", "AWS_SESSION_TOKEN": "TOKEN"}
	cases := []struct {
		name               string
		cfg                Config
		wantKey, wantToken string
		wantLimits         bool
	}{
		{"aws", Config{Region: "eu-west-1"}, "AKID", "TOKEN", true},
		{"emulators", Config{Region: "eu-west-1", DynamoDBEndpoint: "http://127.0.0.1:8000"}, "local", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := lambdaAWSConfig(tc.cfg, func(k string) string { return env[k] })
			if got.Region != "eu-west-1" {
				t.Errorf("region = %q, want eu-west-1", got.Region)
			}
			creds, err := got.Credentials.Retrieve(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if creds.AccessKeyID != tc.wantKey || creds.SessionToken != tc.wantToken {
				t.Errorf("credentials = %q, %q; want %q, %q", creds.AccessKeyID, creds.SessionToken, tc.wantKey, tc.wantToken)
			}
			if limits := got.Retryer != nil && got.HTTPClient != nil; limits != tc.wantLimits {
				t.Fatalf("SDK limits set = %v, want %v", limits, tc.wantLimits)
			}
			if tc.wantLimits {
				if n := got.Retryer().MaxAttempts(); n != SDKMaxAttempts {
					t.Errorf("max attempts = %d, want %d", n, SDKMaxAttempts)
				}
			}
		})
	}
}
