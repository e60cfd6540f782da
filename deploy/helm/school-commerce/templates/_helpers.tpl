{{/* The processes and peer addresses, generated from libs/config by deploy/k8s/generate.mjs. */}}
{{- define "school-commerce.description" -}}
{{- .Files.Get "files/processes.yaml" -}}
{{- end }}

{{- define "school-commerce.labels" -}}
app.kubernetes.io/name: {{ . }}
app.kubernetes.io/part-of: school-commerce
{{- end }}

{{/* Image of a process: (list $ "gateway"). Without a tag (the Kustomize base), the overlay sets it. */}}
{{- define "school-commerce.image" -}}
{{- $root := index . 0 -}}
{{- $repository := $root.Values.image.repository -}}
{{- with $repository }}{{ . }}/{{ end }}school-commerce-{{ index . 1 }}{{ with $root.Values.image.tag }}:{{ . }}{{ end }}
{{- end }}

{{- define "school-commerce.secretName" -}}
{{- .Values.existingSecret | default "school-commerce-secrets" -}}
{{- end }}

{{- define "school-commerce.secretEnv" -}}
{{- $secret := index . 0 -}}
{{- range index . 1 }}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ .name }}
      {{- if not .required }}
      optional: true
      {{- end }}
{{- end }}
{{- end }}

{{- define "school-commerce.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/* The in-cluster infrastructure's pods: the official images' own non-root user (uid 999), else any. */}}
{{- define "school-commerce.infrastructurePodSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ . }}
runAsGroup: {{ . }}
fsGroup: {{ . }}
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{- define "school-commerce.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop:
    - ALL
{{- end }}

{{/*
Credentials of the in-cluster infrastructure, worked out once per rendering (every template that
needs them gets the same): a password of the values, else the one kept in the Secret
school-commerce-infrastructure (lookup, on upgrade), else a new random one.
*/}}
{{- define "school-commerce.infrastructureCredentials" -}}
{{- if not (hasKey .Values "_infrastructureCredentials") -}}
{{- $kept := (lookup "v1" "Secret" .Release.Namespace "school-commerce-infrastructure").data | default dict -}}
{{- $credentials := dict "RABBITMQ_DEFAULT_USER" .Values.rabbitmq.username "MINIO_ROOT_USER" .Values.minio.rootUser -}}
{{- range $key, $given := dict "POSTGRES_PASSWORD" .Values.postgres.password "REDIS_PASSWORD" .Values.redis.password "RABBITMQ_DEFAULT_PASS" .Values.rabbitmq.password "MINIO_ROOT_PASSWORD" .Values.minio.rootPassword -}}
{{- $_ := set $credentials $key ($given | default (index $kept $key | default "" | b64dec) | default (randAlphaNum 32)) -}}
{{- end -}}
{{- $_ := set .Values "_infrastructureCredentials" $credentials -}}
{{- end -}}
{{- toYaml .Values._infrastructureCredentials -}}
{{- end }}

{{/* Credentials of the chart's Secret: those of the in-cluster infrastructure that is enabled, then .Values.secrets (which wins). */}}
{{- define "school-commerce.secretData" -}}
{{- $data := dict -}}
{{- $infrastructure := include "school-commerce.infrastructureCredentials" . | fromYaml -}}
{{- if .Values.postgres.enabled }}{{ $_ := set $data "DATABASE_URL" (printf "postgresql://postgres:%s@postgres:5432/postgres" $infrastructure.POSTGRES_PASSWORD) }}{{ end -}}
{{- if .Values.redis.enabled }}{{ $_ := set $data "REDIS_URL" (printf "redis://:%s@redis:6379" $infrastructure.REDIS_PASSWORD) }}{{ end -}}
{{- if .Values.rabbitmq.enabled }}{{ $_ := set $data "AMQP_URL" (printf "amqp://%s:%s@rabbitmq:5672" $infrastructure.RABBITMQ_DEFAULT_USER $infrastructure.RABBITMQ_DEFAULT_PASS) }}{{ end -}}
{{- if .Values.mailpit.enabled }}{{ $_ := set $data "SMTP_URL" "smtp://mailpit:1025" }}{{ end -}}
{{- if .Values.minio.enabled }}{{ $_ := set $data "S3_ACCESS_KEY" $infrastructure.MINIO_ROOT_USER }}{{ $_ := set $data "S3_SECRET_KEY" $infrastructure.MINIO_ROOT_PASSWORD }}{{ end -}}
{{- range $key, $value := .Values.secrets }}{{ if $value }}{{ $_ := set $data $key $value }}{{ end }}{{ end -}}
{{- toYaml $data -}}
{{- end }}
