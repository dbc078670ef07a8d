package transfer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
)

// maxBatchBytes keeps a batch's body well under the API's 128 MiB limit of a keyed
// request, however large the records.
const maxBatchBytes = 32 << 20

// batch is consecutive records of the input, as one {records: [...]} body.
type batch struct {
	body     []byte
	lines    []int // the input line of each record, in order
	lastLine int   // the input line the batch reaches, skipped lines included
}

// batcher cuts a Source into batches of up to size records, reporting skipped lines.
type batcher struct {
	src     Source
	size    int
	after   int // lines up to this one were acknowledged before: skipped silently
	skipped func(*LineError)
	done    bool
}

// next returns the next batch, or io.EOF when the input is used up.
func (b *batcher) next() (batch, error) {
	var out batch
	var body bytes.Buffer
	body.WriteString(`{"records":[`)
	for !b.done && len(out.lines) < b.size && body.Len() < maxBatchBytes {
		item, err := b.src.Next()
		var lineErr *LineError
		switch {
		case errors.Is(err, io.EOF):
			b.done = true
			continue
		case errors.As(err, &lineErr):
			if lineErr.Line > b.after {
				out.lastLine = lineErr.Line
				if b.skipped != nil {
					b.skipped(lineErr)
				}
			}
			continue
		case err != nil:
			return batch{}, err
		}
		if item.Line <= b.after {
			continue
		}
		if len(out.lines) > 0 {
			body.WriteByte(',')
		}
		body.Write(item.Record)
		out.lines = append(out.lines, item.Line)
		out.lastLine = item.Line
	}
	if len(out.lines) == 0 {
		return out, io.EOF
	}
	body.WriteString(`]}`)
	out.body = body.Bytes()
	return out, nil
}

var recordPosition = regexp.MustCompile(`^records\[(\d+)\]`)

// lineOfRefusal names the input line of the record a 400 message points at
// ("records[17]: ..."), or 0 when it points at none of the batch's records.
func lineOfRefusal(message string, lines []int) int {
	m := recordPosition.FindStringSubmatch(message)
	if m == nil {
		return 0
	}
	i, err := strconv.Atoi(m[1])
	if err != nil || i >= len(lines) {
		return 0
	}
	return lines[i]
}

// refusal describes a batch the API refused, naming the record's line when it can.
func refusal(err error, b batch) error {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		if line := lineOfRefusal(apiErr.Message, b.lines); line > 0 {
			return fmt.Errorf("line %d: %w", line, err)
		}
	}
	return fmt.Errorf("batch of lines %d to %d: %w", b.lines[0], b.lastLine, err)
}
