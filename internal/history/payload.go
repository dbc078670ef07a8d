package history

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/esnames"
)

// chunkBytes bounds the gzipped state one payload document holds, so that a large rule
// set never makes one request Elasticsearch refuses.
const chunkBytes = 1 << 20

// payloadKind is the kind of the payload documents.
const payloadKind = "historyPayload"

// payloadDoc is one chunk of a version's state: gzipped JSON (base64 in _source).
type payloadDoc struct {
	Kind string `json:"kind"`
	Data []byte `json:"data"`
}

func chunkID(payload string, n int) string { return payload + "." + strconv.Itoa(n) }

// writePayload stores state in new payload documents: the entry that names them.
func (l *Log) writePayload(ctx context.Context, names esnames.Index, state any) (entry, error) {
	zipped, err := pack(state)
	if err != nil {
		return entry{}, err
	}
	e := entry{Payload: newPayloadID(l.kind)}
	for start := 0; start == 0 || start < len(zipped); start += chunkBytes {
		doc := payloadDoc{Kind: payloadKind, Data: zipped[start:min(start+chunkBytes, len(zipped))]}
		if err := l.docs.Overwrite(ctx, names.Control(), chunkID(e.Payload, e.Chunks), doc); err != nil {
			return entry{}, err
		}
		e.Chunks++
	}
	return e, nil
}

// readPayload decodes the state e names into into.
func (l *Log) readPayload(ctx context.Context, names esnames.Index, e entry, into any) error {
	var zipped []byte
	for n := 0; n < e.Chunks; n++ {
		doc, v, err := controlindex.Read[payloadDoc](ctx, l.docs, names, chunkID(e.Payload, n))
		if err != nil {
			return err
		}
		if !v.Found {
			return fmt.Errorf("%w: the state of version %d is gone", ErrVersionNotFound, e.Version.Version)
		}
		zipped = append(zipped, doc.Data...)
	}
	return unpack(zipped, into)
}

// deletePayloads deletes the payload documents of entries no longer listed. A failure
// leaves documents nothing names, which take room but change no answer: it is not the
// write's failure.
func (l *Log) deletePayloads(ctx context.Context, names esnames.Index, entries []entry) {
	for _, e := range entries {
		for n := 0; n < e.Chunks; n++ {
			_ = l.docs.Delete(ctx, names.Control(), chunkID(e.Payload, n), controlindex.Versioned{})
		}
	}
}

func pack(state any) ([]byte, error) {
	raw, err := json.Marshal(state)
	if err != nil {
		return nil, fmt.Errorf("encoding a version's state: %w", err)
	}
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(raw); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func unpack(zipped []byte, into any) error {
	r, err := gzip.NewReader(bytes.NewReader(zipped))
	if err != nil {
		return fmt.Errorf("reading a version's state: %w", err)
	}
	raw, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("reading a version's state: %w", err)
	}
	if err := json.Unmarshal(raw, into); err != nil {
		return fmt.Errorf("decoding a version's state: %w", err)
	}
	return nil
}
