{{/* Chart name, cut to the 63 characters a label allows. */}}
{{- define "aisle.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Prefix of every object name: <release>-<chart>, or the release alone when it holds the chart name. */}}
{{- define "aisle.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "aisle.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: aisle
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{ include "aisle.selectorLabels" . }}
{{- end }}

{{- define "aisle.selectorLabels" -}}
app.kubernetes.io/name: {{ include "aisle.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Labels of one component; call with (dict "ctx" $ "component" "operator"). */}}
{{- define "aisle.componentLabels" -}}
{{ include "aisle.labels" .ctx }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "aisle.componentSelector" -}}
{{ include "aisle.selectorLabels" .ctx }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "aisle.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end }}

{{- define "aisle.operator.serviceAccountName" -}}
{{- if .Values.operator.serviceAccount.create }}
{{- default (printf "%s-operator" (include "aisle.fullname" .)) .Values.operator.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.operator.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "aisle.apiserver.serviceAccountName" -}}
{{- if .Values.apiserver.serviceAccount.create }}
{{- default (printf "%s-apiserver" (include "aisle.fullname" .)) .Values.apiserver.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.apiserver.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The embedded engine runs unless an Elasticsearch URL is given. */}}
{{- define "aisle.engine.enabled" -}}
{{- if and .Values.engine.enabled (not .Values.elasticsearch.url) }}true{{ end }}
{{- end }}

{{- define "aisle.esURL" -}}
{{- if .Values.elasticsearch.url }}
{{- .Values.elasticsearch.url }}
{{- else if include "aisle.engine.enabled" . }}
{{- printf "http://%s-engine.%s.svc:%d" (include "aisle.fullname" .) .Release.Namespace (int .Values.engine.port) }}
{{- else }}
{{- fail "set elasticsearch.url, or leave engine.enabled on: the operator and API server need a search backend" }}
{{- end }}
{{- end }}

{{/*
Environment that reaches Elasticsearch, shared by the operator and the API server: the URL,
basic-auth credentials from a Secret, and the CA through SSL_CERT_DIR, which Go adds to the
image's public CAs (/etc/ssl/certs).
*/}}
{{- define "aisle.esEnv" -}}
- name: AISLE_ES_URL
  value: {{ include "aisle.esURL" . | quote }}
{{- with .Values.elasticsearch.existingSecret }}
- name: AISLE_ES_USERNAME
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: {{ $.Values.elasticsearch.usernameKey }}
- name: AISLE_ES_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: {{ $.Values.elasticsearch.passwordKey }}
{{- end }}
{{- if .Values.elasticsearch.caSecret }}
- name: SSL_CERT_DIR
  value: /etc/ssl/certs:/etc/aisle/elasticsearch-ca
{{- end }}
{{- end }}

{{/* The CA's volume and mount, for callers that checked elasticsearch.caSecret. */}}
{{- define "aisle.esCAVolumeMount" -}}
- name: elasticsearch-ca
  mountPath: /etc/aisle/elasticsearch-ca
  readOnly: true
{{- end }}

{{- define "aisle.esCAVolume" -}}
- name: elasticsearch-ca
  secret:
    secretName: {{ .Values.elasticsearch.caSecret }}
    items:
      - key: {{ .Values.elasticsearch.caKey }}
        path: ca.crt
{{- end }}

{{/*
Replicas the public search limits are shared by: the fixed count, or the most the autoscaler
may run, so that the cluster never allows more than the limits whatever it scales to.
*/}}
{{- define "aisle.apiserver.limitReplicas" -}}
{{- if .Values.apiserver.autoscaling.enabled }}
{{- .Values.apiserver.autoscaling.maxReplicas }}
{{- else }}
{{- .Values.apiserver.replicas }}
{{- end }}
{{- end }}

{{/* One replica's share of a limit: rounded down so the sum never exceeds it, and at least 1. */}}
{{- define "aisle.perReplica" -}}
{{- max 1 (div (int .limit) (max 1 (int .replicas))) }}
{{- end }}

{{/* Pod-level settings every component shares. */}}
{{- define "aisle.podCommon" -}}
securityContext:
  {{- toYaml .ctx.Values.podSecurityContext | nindent 2 }}
{{- with .ctx.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* The rules make manifests generated for a role; call with (dict "ctx" $ "role" "operator"). */}}
{{- define "aisle.generatedRules" -}}
{{- $generated := .ctx.Files.Get (printf "files/rbac/%s.yaml" .role) | fromYaml }}
{{- if not $generated.rules }}
{{- fail (printf "files/rbac/%s.yaml has no rules: run make manifests" .role) }}
{{- end }}
{{- toYaml $generated.rules }}
{{- end }}

{{/* Name of the embedding server's Deployment and Service. */}}
{{- define "aisle.embeddings.name" -}}
{{- printf "%s-embeddings" (include "aisle.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Base URL of the embedding server; the API server's openAI embedders POST to {url}/v1/embeddings. */}}
{{- define "aisle.embeddings.url" -}}
{{- printf "http://%s.%s.svc:%d" (include "aisle.embeddings.name" .) .Release.Namespace (int .Values.embeddings.port) }}
{{- end }}

{{/* The chosen server's values (image, model). */}}
{{- define "aisle.embeddings.server" -}}
{{- toYaml (get .Values.embeddings .Values.embeddings.server) }}
{{- end }}

{{/* Ollama's address and its writable folders: the model cache volume, never the read-only root. */}}
{{- define "aisle.embeddings.ollamaEnv" -}}
- name: OLLAMA_HOST
  value: {{ printf "0.0.0.0:%d" (int .Values.embeddings.port) | quote }}
- name: OLLAMA_MODELS
  value: /data/models
- name: HOME
  value: /data
{{- end }}

{{- define "aisle.embeddings.volumeMounts" -}}
- name: models
  mountPath: /data
- name: tmp
  mountPath: /tmp
{{- end }}
