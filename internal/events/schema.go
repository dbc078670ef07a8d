// Package events records shopper events (views, clicks, carts, purchases, cancels) and
// orders in Elasticsearch, and reads them back as the Events page's statistics and the
// Bought together list. This file is the storage schema both sides share: the documents
// of the monthly event indices and of the order index, and their mappings. Only what the
// contract's "What is kept" table allows is stored: never an IP address, a user agent or
// an order ID.
package events

// Type is an event's type, named as in the contract.
type Type string

const (
	View      Type = "view"
	Click     Type = "click"
	AddToCart Type = "addToCart"
	Purchase  Type = "purchase"
	Cancel    Type = "cancel"
	// NotRecorded documents count events that were answered but dropped (crawlers,
	// automation), one document per request and reason, with Count events.
	NotRecorded Type = "notRecorded"
)

// Types are the five event types a client may send.
var Types = []Type{View, Click, AddToCart, Purchase, Cancel}

// Source says who sent an event or an order.
type Source string

const (
	// FromBrowser is an event sent to the public events endpoint.
	FromBrowser Source = "browser"
	// FromServer is an event sent with an API key.
	FromServer Source = "server"
	// FromPast is an order imported through POST /past-orders.
	FromPast Source = "past"
)

// List names a recommendation list a click came from.
type List string

const (
	GoesWith List = "goesWith"
	Similar  List = "similar"
	Together List = "together"
	// Trending is not a product's list: its clicks come without from (an extension of
	// the contract's three lists).
	Trending List = "trending"
)

// Lists are the recommendation lists a click may name.
var Lists = []List{GoesWith, Similar, Together, Trending}

// Item is one product of a cart or an order, as stored: only ObjectID is required on the
// wire; Quantity is stored as sent (0 when absent, read as 1 in sums).
type Item struct {
	ObjectID string   `json:"objectID"`
	Quantity int64    `json:"quantity,omitempty"`
	Price    *float64 `json:"price,omitempty"`
}

// EventDoc is one document of a monthly event index (esnames.Index.Events(t), by the
// event's time in UTC). A purchase's document ID is the order key (the keyed hash of the
// order ID, see OrderDoc), so a resent order never counts its revenue twice; other
// events get IDs from the backend.
type EventDoc struct {
	Type      Type   `json:"type"`
	Timestamp int64  `json:"timestamp"` // epoch milliseconds
	Source    Source `json:"source"`

	ObjectID string `json:"objectID,omitempty"` // view, click
	Position int    `json:"position,omitempty"` // click
	Query    string `json:"query,omitempty"`    // click on a search result: lowercase, at most eight words
	List     List   `json:"list,omitempty"`     // click on a recommendation
	From     string `json:"from,omitempty"`     // click on a recommendation: the product whose list it was

	Items    []Item  `json:"items,omitempty"`    // addToCart, purchase
	Currency string  `json:"currency,omitempty"` // ISO 4217, upper case
	Revenue  float64 `json:"revenue,omitempty"`  // sum of price × quantity (quantity 1 when absent)
	Units    int64   `json:"units,omitempty"`    // sum of quantities (1 when absent)

	// Cancelled marks a purchase whose order was cancelled: the Events page leaves it
	// out of purchases and revenue.
	Cancelled bool `json:"cancelled,omitempty"`

	Country string `json:"country,omitempty"` // ISO 3166-1 alpha-2, upper case; empty when unknown
	Device  string `json:"device,omitempty"`  // desktop, mobile, tablet or other; empty for server events
	Site    string `json:"site,omitempty"`    // host of the page's Origin for browser events; empty for server events

	Reason string `json:"reason,omitempty"` // notRecorded: why the events were dropped
	Count  int64  `json:"count,omitempty"`  // notRecorded: how many events
}

// OrderDoc is one document of the order index (esnames.Index.Orders()). Its ID is the
// order key: hex HMAC-SHA256 of the order ID under the index's random order key, kept in
// the control index, so the order ID itself is never stored and a resent order is the
// same document (written with op_type=create: counted once, across replicas and restarts).
type OrderDoc struct {
	Timestamp int64    `json:"timestamp"` // epoch milliseconds
	Products  []string `json:"products"`  // the first 50 distinct objectIDs
	Source    Source   `json:"source"`
	// Counts says whether the order counts for Bought together: always for server and
	// past orders; for browser orders only with the setting countBrowserOrders on, and
	// then for at most 3 orders a day per visitor.
	Counts    bool `json:"counts"`
	Cancelled bool `json:"cancelled,omitempty"`
	// Visitor is the daily-salted hash of a browser order's network address and user
	// agent; removed from the order two days after it was placed.
	Visitor string `json:"visitor,omitempty"`
}

// MaxOrderProducts is how many distinct products an order keeps.
const MaxOrderProducts = 50

// EventMapping is the mapping of a monthly event index. Dynamic fields are refused, so a
// document holds exactly the fields above.
const EventMapping = `{"mappings":{"dynamic":"strict","properties":{
"type":{"type":"keyword"},
"timestamp":{"type":"date","format":"epoch_millis"},
"source":{"type":"keyword"},
"objectID":{"type":"keyword"},
"position":{"type":"integer"},
"query":{"type":"keyword"},
"list":{"type":"keyword"},
"from":{"type":"keyword"},
"items":{"properties":{"objectID":{"type":"keyword"},"quantity":{"type":"long"},"price":{"type":"double"}}},
"currency":{"type":"keyword"},
"revenue":{"type":"double"},
"units":{"type":"long"},
"cancelled":{"type":"boolean"},
"country":{"type":"keyword"},
"device":{"type":"keyword"},
"site":{"type":"keyword"},
"reason":{"type":"keyword"},
"count":{"type":"long"}}}}`

// OrderMapping is the mapping of the order index.
const OrderMapping = `{"mappings":{"dynamic":"strict","properties":{
"timestamp":{"type":"date","format":"epoch_millis"},
"products":{"type":"keyword"},
"source":{"type":"keyword"},
"counts":{"type":"boolean"},
"cancelled":{"type":"boolean"},
"visitor":{"type":"keyword"}}}}`
