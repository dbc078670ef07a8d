// Package feed reads Google Merchant Center product feeds (RSS 2.0 and Atom with the g:
// namespace, and the tab-separated text feed) into Aisle records. It is pure parsing:
// where the records go is the caller's business.
package feed

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// GoogleNS is the namespace of Merchant Center's product attributes (the g: prefix).
const GoogleNS = "http://base.google.com/ns/1.0"

// Product is one product of a feed, as an Aisle record, with the line it starts on.
type Product struct {
	Line   int
	Record json.RawMessage
}

// ItemError is a feed item or line that holds no usable product: report and skip it.
type ItemError struct {
	Line   int
	Reason string
}

func (e *ItemError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Reason) }

// Reader yields a feed's products in order. Next returns io.EOF at the end, an
// *ItemError for an item to skip (the next call goes on after it), and any other error
// for a feed that cannot be read further.
type Reader interface {
	Next() (Product, error)
}

// Open reads a feed of either kind, told apart by its first character: XML starts with
// '<', the text feed with its header row.
func Open(r io.Reader) Reader {
	br := bufio.NewReaderSize(r, 1<<16)
	head, _ := br.Peek(512)
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\ufeff")), " \t\r\n")
	if len(head) > 0 && head[0] == '<' {
		return NewXML(br)
	}
	return NewTSV(br)
}

// attributes are one item's Merchant Center attributes by name, in feed order.
type attributes map[string][]string

func (a attributes) first(name string) string {
	if v := a[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}

func (a attributes) add(name, value string) {
	if value != "" {
		a[name] = append(a[name], value)
	}
}

// product maps one item's attributes to its record, or says why it cannot.
func product(line int, attrs attributes) (Product, error) {
	rec, err := Record(attrs)
	if err != nil {
		return Product{}, &ItemError{Line: line, Reason: err.Error()}
	}
	raw, err := marshal(rec)
	if err != nil {
		return Product{}, &ItemError{Line: line, Reason: err.Error()}
	}
	return Product{Line: line, Record: raw}, nil
}

func marshal(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
