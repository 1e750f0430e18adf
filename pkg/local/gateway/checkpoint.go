package gateway

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// checkpoints are the stream event sources' positions: for each source (function and event)
// and shard of its stream, the sequence number of the last record done with (delivered,
// filtered out or sent to the on-failure destination), and whether the shard was read to its
// end. They live in memory, and in a JSON file when one is given, so a restarted local stack
// resumes where it stopped instead of replaying the stream from TRIM_HORIZON.
type checkpoints struct {
	file string

	mu   sync.Mutex
	data checkpointData
}

type checkpointData struct {
	// Sources is keyed by "<FunctionLogicalId>.<EventName>".
	Sources map[string]*sourceCheckpoint `json:"sources"`
}

type sourceCheckpoint struct {
	// StreamARN is the stream the shards belong to; a new stream (the table or its stream
	// was recreated) starts over.
	StreamARN string                     `json:"streamArn"`
	Shards    map[string]shardCheckpoint `json:"shards"`
}

type shardCheckpoint struct {
	SequenceNumber string `json:"sequenceNumber,omitempty"`
	// Ended is set when the shard was closed and read to its end.
	Ended bool `json:"ended,omitempty"`
}

// loadCheckpoints reads the checkpoint file, if any ("" keeps checkpoints in memory only).
func loadCheckpoints(file string) (*checkpoints, error) {
	c := &checkpoints{file: file, data: checkpointData{Sources: map[string]*sourceCheckpoint{}}}
	if file == "" {
		return c, nil
	}
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, fmt.Errorf("stream checkpoints: %w", err)
	}
	if err := json.Unmarshal(b, &c.data); err != nil {
		return nil, fmt.Errorf("stream checkpoints: %s: %w (delete it to start the streams over)", file, err)
	}
	if c.data.Sources == nil {
		c.data.Sources = map[string]*sourceCheckpoint{}
	}
	return c, nil
}

// get returns the checkpoint of a source's shard on a stream.
func (c *checkpoints) get(source, streamARN, shard string) (shardCheckpoint, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.data.Sources[source]
	if s == nil || s.StreamARN != streamARN {
		return shardCheckpoint{}, false
	}
	cp, ok := s.Shards[shard]
	return cp, ok
}

// set records a source's shard checkpoint and writes the file.
func (c *checkpoints) set(source, streamARN, shard string, cp shardCheckpoint) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.data.Sources[source]
	if s == nil || s.StreamARN != streamARN {
		s = &sourceCheckpoint{StreamARN: streamARN, Shards: map[string]shardCheckpoint{}}
		c.data.Sources[source] = s
	}
	if s.Shards[shard] == cp {
		return nil
	}
	s.Shards[shard] = cp
	return c.save()
}

// save writes the file atomically (a temporary file renamed over it).
func (c *checkpoints) save() error {
	if c.file == "" {
		return nil
	}
	b, err := json.MarshalIndent(c.data, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(c.file), 0o700); err != nil {
		return fmt.Errorf("stream checkpoints: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(c.file), ".checkpoints-*")
	if err != nil {
		return fmt.Errorf("stream checkpoints: %w", err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("stream checkpoints: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("stream checkpoints: %w", err)
	}
	if err := os.Rename(tmp.Name(), c.file); err != nil {
		return fmt.Errorf("stream checkpoints: %w", err)
	}
	return nil
}
