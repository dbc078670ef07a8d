package devenv

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/apikey"
)

// Env is the content of dev-env.json: everything a script needs to drive the system.
type Env struct {
	BaseURL    string            `json:"baseUrl"`
	EngineURL  string            `json:"engineUrl"`
	Kubeconfig string            `json:"kubeconfig"`
	Kubectl    string            `json:"kubectl"`
	Workspace  string            `json:"workspace"`
	Indexes    []EnvIndex        `json:"indexes"`
	Keys       map[string]string `json:"keys"`
}

// EnvIndex is one index of the workspace.
type EnvIndex struct {
	Name           string   `json:"name"`
	PublicID       string   `json:"publicId"`
	AllowedOrigins []string `json:"allowedOrigins"`
}

// Ready reports whether every Workspace, SearchIndex and APIKey of workspace ws has
// Ready=True for its current generation; otherwise it names one that is not.
func Ready(ctx context.Context, c client.Client, ws string) (bool, string, error) {
	var w searchv1alpha1.Workspace
	if err := c.Get(ctx, types.NamespacedName{Name: ws}, &w); err != nil {
		return false, "", err
	}
	if !isReady(w.Status.Conditions, w.Generation) {
		return false, "Workspace " + ws, nil
	}
	var idxs searchv1alpha1.SearchIndexList
	if err := c.List(ctx, &idxs, client.InNamespace(ws)); err != nil {
		return false, "", err
	}
	for _, i := range idxs.Items {
		if !isReady(i.Status.Conditions, i.Generation) {
			return false, "SearchIndex " + i.Name, nil
		}
	}
	var keys searchv1alpha1.APIKeyList
	if err := c.List(ctx, &keys, client.InNamespace(ws)); err != nil {
		return false, "", err
	}
	for _, k := range keys.Items {
		if !isReady(k.Status.Conditions, k.Generation) {
			return false, "APIKey " + k.Name, nil
		}
	}
	return true, "", nil
}

func isReady(conds []metav1.Condition, generation int64) bool {
	c := meta.FindStatusCondition(conds, searchv1alpha1.ConditionReady)
	return c != nil && c.Status == metav1.ConditionTrue && c.ObservedGeneration == generation
}

// Collect reads the indexes and keys of workspace ws. Keys come from their Secrets:
// dev runs as the cluster admin, which the API server never is.
func Collect(ctx context.Context, c client.Client, ws string) ([]EnvIndex, map[string]string, error) {
	var idxs searchv1alpha1.SearchIndexList
	if err := c.List(ctx, &idxs, client.InNamespace(ws)); err != nil {
		return nil, nil, err
	}
	indexes := make([]EnvIndex, 0, len(idxs.Items))
	for _, i := range idxs.Items {
		origins := make([]string, 0, len(i.Spec.AllowedOrigins))
		for _, o := range i.Spec.AllowedOrigins {
			origins = append(origins, string(o))
		}
		indexes = append(indexes, EnvIndex{Name: i.Name, PublicID: i.Status.PublicID, AllowedOrigins: origins})
	}
	keys, err := collectKeys(ctx, c, ws)
	return indexes, keys, err
}

// collectKeys maps each scope to a key that has it, preferring keys with fewest scopes.
func collectKeys(ctx context.Context, c client.Client, ws string) (map[string]string, error) {
	var list searchv1alpha1.APIKeyList
	if err := c.List(ctx, &list, client.InNamespace(ws)); err != nil {
		return nil, err
	}
	slices.SortFunc(list.Items, func(a, b searchv1alpha1.APIKey) int { return len(a.Spec.Scopes) - len(b.Spec.Scopes) })
	keys := map[string]string{}
	for _, k := range list.Items {
		var secret corev1.Secret
		if err := c.Get(ctx, types.NamespacedName{Namespace: ws, Name: k.Status.SecretName}, &secret); err != nil {
			return nil, fmt.Errorf("reading the Secret of APIKey %s: %w", k.Name, err)
		}
		for _, s := range k.Spec.Scopes {
			if _, ok := keys[string(s)]; !ok {
				keys[string(s)] = string(secret.Data[apikey.SecretKey])
			}
		}
	}
	return keys, nil
}

// Write stores env as indented JSON at path.
func (e Env) Write(path string) error {
	data, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o600)
}

// CurlLines are commands that work as printed against the running system.
func (e Env) CurlLines() string {
	var b strings.Builder
	for _, idx := range e.Indexes {
		prefix := fmt.Sprintf("%s/api/teams/%s/indexes/%s", e.BaseURL, e.Workspace, idx.Name)
		if k := e.Keys["search"]; k != "" {
			fmt.Fprintf(&b, "curl -s -H 'Authorization: Bearer %s' %s/config\n", k, prefix)
		}
		if k := e.Keys["write"]; k != "" {
			fmt.Fprintf(&b, "curl -s -H 'Authorization: Bearer %s' %s/public-access\n", k, prefix)
			fmt.Fprintf(&b, "curl -s -X POST -H 'Authorization: Bearer %s' -H 'Content-Type: application/json' "+
				"-d '{\"records\":[{\"objectID\":\"sku-1\",\"name\":\"Trail shoe\",\"brand\":\"Acme\",\"price\":89}]}' %s/records\n", k, prefix)
			fmt.Fprintf(&b, "curl -s -H 'Authorization: Bearer %s' %s/records/sku-1\n", k, prefix)
		}
	}
	fmt.Fprintf(&b, "%s --kubeconfig %s get workspaces,searchindexes,apikeys -A\n", e.Kubectl, e.Kubeconfig)
	return b.String()
}
