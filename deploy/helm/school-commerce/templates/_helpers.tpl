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

{{- define "school-commerce.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop:
    - ALL
{{- end }}

{{/* Credentials of the chart's Secret: those of the in-cluster infrastructure that is enabled, then .Values.secrets (which wins). */}}
{{- define "school-commerce.secretData" -}}
{{- $data := dict -}}
{{- with .Values.postgres }}{{ if .enabled }}{{ $_ := set $data "DATABASE_URL" (printf "postgresql://postgres:%s@postgres:5432/postgres" .password) }}{{ end }}{{ end -}}
{{- with .Values.redis }}{{ if .enabled }}{{ $_ := set $data "REDIS_URL" "redis://redis:6379" }}{{ end }}{{ end -}}
{{- with .Values.rabbitmq }}{{ if .enabled }}{{ $_ := set $data "AMQP_URL" (printf "amqp://%s:%s@rabbitmq:5672" .username .password) }}{{ end }}{{ end -}}
{{- with .Values.mailpit }}{{ if .enabled }}{{ $_ := set $data "SMTP_URL" "smtp://mailpit:1025" }}{{ end }}{{ end -}}
{{- with .Values.minio }}{{ if .enabled }}{{ $_ := set $data "S3_ACCESS_KEY" .rootUser }}{{ $_ := set $data "S3_SECRET_KEY" .rootPassword }}{{ end }}{{ end -}}
{{- range $key, $value := .Values.secrets }}{{ if $value }}{{ $_ := set $data $key $value }}{{ end }}{{ end -}}
{{- toYaml $data -}}
{{- end }}
