package feed

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

const atomNS = "http://www.w3.org/2005/Atom"

// xmlReader reads RSS 2.0 <item>s and Atom <entry>s; inside one, attributes come from
// the g: namespace or from the feed's own (RSS's none, Atom's).
type xmlReader struct {
	dec *xml.Decoder
}

// NewXML reads an RSS 2.0 or Atom feed.
func NewXML(r io.Reader) Reader {
	dec := xml.NewDecoder(r)
	dec.Entity = xml.HTMLEntity // feeds written from HTML keep &nbsp; and its kin
	return &xmlReader{dec: dec}
}

func (x *xmlReader) Next() (Product, error) {
	for {
		tok, err := x.dec.Token()
		if errors.Is(err, io.EOF) {
			return Product{}, io.EOF
		}
		if err != nil {
			return Product{}, x.fatal(err)
		}
		start, ok := tok.(xml.StartElement)
		if !ok || !isItem(start.Name) {
			continue
		}
		line, _ := x.dec.InputPos()
		attrs, err := x.item(start.Name.Space)
		if err != nil {
			return Product{}, x.fatal(err)
		}
		return product(line, attrs)
	}
}

// fatal describes an error that ends the feed: XML that is not well-formed cannot be
// read on past the fault.
func (x *xmlReader) fatal(err error) error {
	var syn *xml.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Errorf("line %d: the feed is not well-formed XML: %s", syn.Line, syn.Msg)
	}
	line, _ := x.dec.InputPos()
	return fmt.Errorf("line %d: reading the feed: %w", line, err)
}

func isItem(n xml.Name) bool {
	return (n.Local == "item" && n.Space == "") || (n.Local == "entry" && n.Space == atomNS)
}

// item reads the children of one item up to its end.
func (x *xmlReader) item(space string) (attributes, error) {
	attrs := attributes{}
	for {
		tok, err := x.dec.Token()
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return attrs, nil
		case xml.StartElement:
			text, err := x.text()
			if err != nil {
				return nil, err
			}
			if name, ok := attributeName(t.Name, space); ok {
				attrs.add(name, strings.TrimSpace(orHref(text, t)))
			}
		}
	}
}

// attributeName is the Merchant Center attribute an element of an item stands for.
func attributeName(n xml.Name, itemSpace string) (string, bool) {
	switch {
	case n.Space == GoogleNS:
		return n.Local, true
	case n.Space != itemSpace:
		return "", false
	case itemSpace == atomNS && n.Local == "id":
		return "", false // Atom's own entry ID, not the product's g:id
	case itemSpace == atomNS && n.Local == "summary":
		return "description", true
	}
	return n.Local, true
}

// orHref is an Atom <link href="..."/>'s address when the element has no text.
func orHref(text string, el xml.StartElement) string {
	if strings.TrimSpace(text) != "" {
		return text
	}
	for _, a := range el.Attr {
		if a.Name.Local == "href" {
			return a.Value
		}
	}
	return text
}

// text reads an element's own text up to its end; nested elements (g:shipping's parts)
// are skipped, their text not kept.
func (x *xmlReader) text() (string, error) {
	var b strings.Builder
	for {
		tok, err := x.dec.Token()
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.CharData:
			b.Write(t)
		case xml.StartElement:
			if err := x.dec.Skip(); err != nil {
				return "", err
			}
		case xml.EndElement:
			return b.String(), nil
		}
	}
}
