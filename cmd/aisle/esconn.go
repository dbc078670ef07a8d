package main

import (
	"flag"
	"fmt"
	"net/url"
	"os"
)

// esConnection is how the operator and the API server reach Elasticsearch. The password
// comes only from the environment (a Secret in the chart), never from a flag that `ps`
// would show.
type esConnection struct {
	url      string
	username string
	password string
}

func bindESConnection(fs *flag.FlagSet) *esConnection {
	c := &esConnection{password: os.Getenv("AISLE_ES_PASSWORD")}
	fs.StringVar(&c.url, "es-url", os.Getenv("AISLE_ES_URL"), "Elasticsearch (or aisle engine) URL; default $AISLE_ES_URL")
	fs.StringVar(&c.username, "es-username", os.Getenv("AISLE_ES_USERNAME"),
		"Elasticsearch user for basic authentication, with the password in $AISLE_ES_PASSWORD; default $AISLE_ES_USERNAME")
	return c
}

// URL returns the Elasticsearch URL with the credentials in its user info, where the
// client takes them for basic authentication; empty when no URL is set.
func (c *esConnection) URL() (string, error) {
	if c.url == "" {
		return "", nil
	}
	u, err := url.Parse(c.url)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", fmt.Errorf("elasticsearch URL %q is not an absolute URL", c.url)
	}
	switch {
	case c.username != "":
		u.User = url.UserPassword(c.username, c.password)
	case c.password != "":
		return "", fmt.Errorf("AISLE_ES_PASSWORD is set without a user name: set --es-username or AISLE_ES_USERNAME")
	}
	return u.String(), nil
}
