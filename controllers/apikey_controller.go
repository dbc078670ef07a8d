package controllers

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/aislehq/aisle/api/securedkey"
	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/apikey"
	"github.com/aislehq/aisle/internal/keyrotation"
)

// APIKeyReconciler issues API keys into Secrets and keeps their hashes, rotations and
// expiry in status.
type APIKeyReconciler struct {
	client.Client
	// APIReader reads Secrets past the cache, so a Secret written a moment ago is never
	// mistaken for a lost one.
	APIReader client.Reader
	Recorder  events.EventRecorder
	Options   Options
}

// +kubebuilder:rbac:groups=search.aisle.dev,resources=apikeys,verbs=get;list;watch
// +kubebuilder:rbac:groups=search.aisle.dev,resources=apikeys/status,verbs=get;update;patch
// +kubebuilder:rbac:groups="",resources=secrets,verbs=get;list;watch;create;update
// +kubebuilder:rbac:groups=search.aisle.dev,resources=apikeys/finalizers,verbs=update

// Reconcile brings one APIKey to its declared state.
func (r *APIKeyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return retryConflicts(r.reconcile(ctx, req))
}

func (r *APIKeyReconciler) reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	key := &searchv1alpha1.APIKey{}
	if err := r.Get(ctx, req.NamespacedName, key); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !key.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil // the Secret goes with its owner
	}
	before := key.Status.DeepCopy()
	key.Status.SecretName = secretName(key)
	key.Status.Scopes = keyrotation.EffectiveScopes(key.Spec.Scopes)
	result, rd, secretValue, err := r.decide(ctx, key)
	setReady(r.Recorder, key, &key.Status.Conditions, key.Generation, rd)
	key.Status.ObservedGeneration = key.Generation
	if !equality.Semantic.DeepEqual(before, &key.Status) {
		if uerr := r.Status().Update(ctx, key); uerr != nil {
			return ctrl.Result{}, errors.Join(err, fmt.Errorf("updating status: %w", uerr))
		}
	}
	if err != nil || secretValue == "" {
		return result, err
	}
	// The new hash is in status before the key is in the Secret: if writing the Secret
	// fails, the next reconcile sees the mismatch and issues another key, and a rotated-out
	// key stays valid meanwhile.
	if err := r.writeSecret(ctx, key, secretValue); err != nil {
		return ctrl.Result{}, err
	}
	return result, nil
}

// decide applies the key decision to status and returns a newly issued key, if any.
func (r *APIKeyReconciler) decide(ctx context.Context, key *searchv1alpha1.APIKey) (ctrl.Result, readiness, string, error) {
	ws := &searchv1alpha1.Workspace{}
	if err := r.Get(ctx, types.NamespacedName{Name: key.Namespace}, ws); err != nil {
		rd := notReady(searchv1alpha1.ReasonWorkspaceNotFound, fmt.Sprintf("no Workspace named %q for this namespace", key.Namespace))
		return ctrl.Result{}, rd, "", client.IgnoreNotFound(err)
	}
	secretKey, err := r.secretKey(ctx, key)
	if err != nil {
		return ctrl.Result{}, notReady(searchv1alpha1.ReasonSecretError, err.Error()), "", err
	}
	now := r.Options.Clock.Now()
	d := keyrotation.Decide(key.Spec, key.Status, hashOf(secretKey), now)
	for _, k := range d.Revoked {
		r.Recorder.Eventf(key, nil, "Normal", "KeyRevoked", "RevokeKey", "key %s revoked", k.Prefix)
	}
	key.Status.Previous = d.Previous
	if d.Expired {
		return ctrl.Result{}, notReady(searchv1alpha1.ReasonExpired, "the key expired at "+key.Spec.ExpiresAt.UTC().String()), "", nil
	}
	result := ctrl.Result{RequeueAfter: d.RequeueAfter}
	if d.Issue == keyrotation.None {
		// A key issued before secured keys existed gets its public key now: the Secret
		// holds that very key (the decision compared their hashes).
		if key.Status.Current.SecuredKeyPublicKey == "" {
			key.Status.Current.SecuredKeyPublicKey = securedkey.PublicKey(secretKey)
		}
		return result, ready("key " + key.Status.Current.Prefix + " is valid"), "", nil
	}
	value, err := apikey.New()
	if err != nil {
		return ctrl.Result{}, notReady(searchv1alpha1.ReasonSecretError, err.Error()), "", err
	}
	key.Status.Current = &searchv1alpha1.IssuedKey{Prefix: apikey.Prefix(value), Hash: apikey.Hash(value),
		IssuedAt: metav1.NewTime(now), SecuredKeyPublicKey: securedkey.PublicKey(value)}
	if key.Spec.Rotation != nil {
		key.Status.LastRotationRequest = key.Spec.Rotation.Request
	}
	r.recordIssue(ctx, key, d.Issue)
	return result, ready("key " + key.Status.Current.Prefix + " is valid"), value, nil
}

func (r *APIKeyReconciler) recordIssue(ctx context.Context, key *searchv1alpha1.APIKey, why keyrotation.Reason) {
	prefix := key.Status.Current.Prefix
	log.FromContext(ctx).Info("issuing key", "reason", string(why), "prefix", prefix)
	keysIssued.WithLabelValues(string(why)).Inc()
	if why == keyrotation.Requested || why == keyrotation.Scheduled {
		r.Recorder.Eventf(key, nil, "Normal", "KeyRotated", "RotateKey", "key %s issued (%s rotation)", prefix, why)
		return
	}
	r.Recorder.Eventf(key, nil, "Normal", "KeyIssued", "IssueKey", "key %s issued (%s) into Secret %s", prefix, why, key.Status.SecretName)
}

// secretKey returns the key in the Secret, or "" when there is none. A mismatch with
// status is confirmed past the cache before it counts.
func (r *APIKeyReconciler) secretKey(ctx context.Context, key *searchv1alpha1.APIKey) (string, error) {
	name := types.NamespacedName{Namespace: key.Namespace, Name: secretName(key)}
	value, err := readSecretKey(ctx, r.Client, name)
	if err != nil || (key.Status.Current != nil && hashOf(value) == key.Status.Current.Hash) {
		return value, err
	}
	return readSecretKey(ctx, r.APIReader, name)
}

func readSecretKey(ctx context.Context, c client.Reader, name types.NamespacedName) (string, error) {
	secret := &corev1.Secret{}
	if err := c.Get(ctx, name, secret); err != nil {
		if apierrors.IsNotFound(err) {
			return "", nil
		}
		return "", fmt.Errorf("reading Secret %s: %w", name.Name, err)
	}
	return string(secret.Data[apikey.SecretKey]), nil
}

// hashOf is the hash of a key found in a Secret, or "" for none.
func hashOf(value string) string {
	if value == "" {
		return ""
	}
	return apikey.Hash(value)
}

// writeSecret puts the key into the Secret the APIKey owns.
func (r *APIKeyReconciler) writeSecret(ctx context.Context, key *searchv1alpha1.APIKey, value string) error {
	secret := &corev1.Secret{}
	name := types.NamespacedName{Namespace: key.Namespace, Name: secretName(key)}
	err := r.APIReader.Get(ctx, name, secret)
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("reading Secret %s: %w", name.Name, err)
	}
	exists := err == nil
	secret.Name, secret.Namespace = name.Name, name.Namespace
	if secret.Labels == nil {
		secret.Labels = map[string]string{}
	}
	secret.Labels[ManagedByLabel] = ManagedByValue
	secret.Type = corev1.SecretTypeOpaque
	secret.Data = map[string][]byte{apikey.SecretKey: []byte(value)}
	if err := controllerutil.SetControllerReference(key, secret, r.Scheme()); err != nil {
		return fmt.Errorf("owning Secret %s: %w", name.Name, err)
	}
	if exists {
		err = r.Update(ctx, secret)
	} else {
		err = r.Create(ctx, secret)
	}
	if err != nil {
		return fmt.Errorf("writing Secret %s: %w", name.Name, err)
	}
	return nil
}

func secretName(key *searchv1alpha1.APIKey) string {
	if key.Spec.SecretName != "" {
		return key.Spec.SecretName
	}
	return key.Name + "-apikey"
}
