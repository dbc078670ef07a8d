package feed

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// tsvReader reads the tab-separated text feed: a header row of attribute names, then one
// product a line.
type tsvReader struct {
	r      *bufio.Reader
	line   int
	header []string
}

// NewTSV reads a tab-separated text feed.
func NewTSV(r io.Reader) Reader { return &tsvReader{r: bufio.NewReaderSize(r, 1<<16)} }

func (t *tsvReader) Next() (Product, error) {
	for {
		line, err := t.readLine()
		if err != nil {
			return Product{}, err
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if t.header == nil {
			if t.header, err = Header(line); err != nil {
				return Product{}, fmt.Errorf("line %d: %w", t.line, err)
			}
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != len(t.header) {
			return Product{}, &ItemError{Line: t.line, Reason: fmt.Sprintf("%d values for %d columns", len(fields), len(t.header))}
		}
		attrs := attributes{}
		for i, f := range fields {
			attrs.add(t.header[i], unquote(strings.TrimSpace(f)))
		}
		return product(t.line, attrs)
	}
}

func (t *tsvReader) readLine() (string, error) {
	s, err := t.r.ReadString('\n')
	if s == "" && err != nil {
		if errors.Is(err, io.EOF) {
			return "", io.EOF
		}
		return "", fmt.Errorf("line %d: reading the feed: %w", t.line+1, err)
	}
	t.line++
	return strings.TrimRight(s, "\r\n"), nil
}

// Header reads the header row: attribute names, lowercase, with or without the g:
// prefix, spaces read as underscores. An id column is required.
func Header(line string) ([]string, error) {
	cols := strings.Split(strings.TrimPrefix(line, "\ufeff"), "\t")
	hasID := false
	for i, c := range cols {
		c = strings.ToLower(strings.TrimSpace(unquote(strings.TrimSpace(c))))
		c = strings.ReplaceAll(strings.TrimPrefix(c, "g:"), " ", "_")
		if c == "" {
			return nil, fmt.Errorf("column %d of the header has no name", i+1)
		}
		cols[i] = c
		hasID = hasID || c == "id"
	}
	if !hasID {
		return nil, errors.New("the header has no id column")
	}
	return cols, nil
}

// unquote removes the double quotes around a value, reading "" inside as one quote.
func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
	}
	return s
}
