package events

import "encoding/json"

// Stats is the body of GET /events/stats: the Events page's figures for the days From to
// To (UTC, both included). Figure names follow the contract's words. Purchases and
// revenue leave cancelled orders out; Orders counts the orders placed in the period
// (events, server and browser, and past orders), CancelledOrders those of them cancelled.
type Stats struct {
	From string `json:"from"` // YYYY-MM-DD
	To   string `json:"to"`   // YYYY-MM-DD

	Totals          Totals            `json:"totals"`
	NotRecorded     NotRecordedCounts `json:"notRecorded"`
	Orders          int64             `json:"orders"`
	CancelledOrders int64             `json:"cancelledOrders"`
	Revenue         []Revenue         `json:"revenue"` // per currency, largest first
	Daily           []Day             `json:"daily"`   // one entry per day of the period, empty days included

	TopProducts  TopProducts  `json:"topProducts"`
	TopQueries   []QueryCount `json:"topQueries"`   // clicked search queries, most clicks first
	ClicksByList []KeyCount   `json:"clicksByList"` // "search" for clicks on results, else the list name
	// Lists holds each recommendation list's clicks and the products most clicked from
	// it, every list present, most clicks first.
	Lists            []ListClicks    `json:"lists"`
	ClicksByPosition []PositionCount `json:"clicksByPosition"` // by position, ascending
	Countries        []KeyCount      `json:"countries"`        // "" is unknown
	Devices          []KeyCount      `json:"devices"`          // desktop, mobile, tablet, other; "server" for server events
	Sites            []KeyCount      `json:"sites"`            // originating site (host); "server" for server events

	// GeneratedAt is when these figures were computed (RFC 3339); they may be up to a
	// minute old.
	GeneratedAt string `json:"generatedAt"`
}

// Totals counts events per type.
type Totals struct {
	View      int64 `json:"view"`
	Click     int64 `json:"click"`
	AddToCart int64 `json:"addToCart"`
	Purchase  int64 `json:"purchase"`
	Cancel    int64 `json:"cancel"`
}

// NotRecordedCounts counts events answered but dropped, by reason.
type NotRecordedCounts struct {
	Total    int64            `json:"total"`
	ByReason map[string]int64 `json:"byReason"`
}

// Revenue is the sum of a currency's purchases.
type Revenue struct {
	Currency  string  `json:"currency"`
	Amount    float64 `json:"amount"`
	Purchases int64   `json:"purchases"`
}

// Day is one day of the chart: events per type.
type Day struct {
	Date string `json:"date"` // YYYY-MM-DD
	Totals
}

// TopProducts are the most frequent products per event type, each at most 10.
type TopProducts struct {
	View      []ProductCount `json:"view"`
	Click     []ProductCount `json:"click"`
	AddToCart []ProductCount `json:"addToCart"`
	Purchase  []ProductCount `json:"purchase"`
}

// ProductCount is a product and how many events name it. Record is the catalog record
// (null when no longer in the catalog), so the page can show its name.
type ProductCount struct {
	ObjectID string          `json:"objectID"`
	Count    int64           `json:"count"`
	Record   json.RawMessage `json:"record"`
}

// ListClicks are the clicks on one recommendation list.
type ListClicks struct {
	List   List  `json:"list"`
	Clicks int64 `json:"clicks"`
	// Products are the products most clicked from the list, at most TopSize.
	Products []ProductCount `json:"products"`
}

// QueryCount is a clicked query and its clicks.
type QueryCount struct {
	Query  string `json:"query"`
	Clicks int64  `json:"clicks"`
}

// KeyCount is a value and how many events hold it.
type KeyCount struct {
	Key   string `json:"key"`
	Count int64  `json:"count"`
}

// PositionCount is a click position and its clicks.
type PositionCount struct {
	Position int   `json:"position"`
	Clicks   int64 `json:"clicks"`
}

// TogetherList is the body of GET /lists/together/{objectID} and its public twin.
type TogetherList struct {
	ObjectID string `json:"objectID"`
	// Orders is how many counted orders within 400 days hold ObjectID.
	Orders int64         `json:"orders"`
	Hits   []TogetherHit `json:"hits"`
}

// TogetherHit is a product bought with the given one, shaped like a search hit.
type TogetherHit struct {
	ObjectID string          `json:"objectID"`
	Record   json.RawMessage `json:"record"`
	// SharedOrders is how many counted orders hold both products: the ranking score.
	SharedOrders int64 `json:"sharedOrders"`
	// Confidence is SharedOrders divided by the orders holding the given product.
	Confidence float64 `json:"confidence"`
}

// Accepted is the 202 body of the event and past-order endpoints.
type Accepted struct {
	Accepted int        `json:"accepted"`
	Rejected []Rejected `json:"rejected"`
}

// Rejected names a refused event (or order) by its position in the request.
type Rejected struct {
	Index  int    `json:"index"`
	Reason string `json:"reason"`
}
