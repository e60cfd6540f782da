# One image for every process of the monorepo; SERVICE picks which one runs.
# docker build -t school-commerce . && docker run -e SERVICE=identity school-commerce
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json nx.json tsconfig.base.json tsconfig.json .swcrc jest.preset.js ./
COPY libs ./libs
COPY services ./services
COPY scripts ./scripts
RUN npm ci && npx nx run-many -t build --parallel=2 --outputStyle=static && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app /app
USER node
CMD ["sh", "-c", "exec node --enable-source-maps services/${SERVICE:?set SERVICE to gateway, identity, reference-data, feedback, media or notifier}/dist/main.js"]
