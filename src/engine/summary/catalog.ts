/**
 * What the summary knows about libraries: which package (npm, PyPI, Maven...) or import
 * prefix is a web framework, an ORM, a queue, an HTTP client, an authentication mechanism or
 * a security control. Imports and manifests are matched against this table; everything the
 * architecture, auth and security sections say about libraries comes from here.
 */

export type LibraryKind =
  | 'web-framework'
  | 'graphql'
  | 'orm'
  | 'database'
  | 'queue'
  | 'http-client'
  | 'auth'
  | 'security-headers'
  | 'csrf'
  | 'rate-limit'
  | 'cors'
  | 'validation'
  | 'password-hashing'
  | 'crypto'
  | 'secrets-config'
  | 'cli'
  | 'websocket'
  | 'scheduler'
  | 'template'
  | 'shell'
  | 'filesystem'

export interface Library {
  id: string
  label: string
  kind: LibraryKind
  /** Data store behind a database or ORM library. */
  store?: string
  /** Authentication mechanism an auth library provides. */
  mechanism?: string
  npm?: string[]
  /** Python import names (dotted prefixes). */
  python?: string[]
  /** PyPI distribution names, when they differ from the import name. */
  pypi?: string[]
  /** Java/Kotlin import prefixes. */
  java?: string[]
  /** Maven/Gradle artifact ids. */
  maven?: string[]
  /** Go module path prefixes. */
  go?: string[]
  gem?: string[]
  composer?: string[]
  cargo?: string[]
  nuget?: string[]
}

/** One catalog entry per package, labelled with the package's own name. */
function perPackage(kind: LibraryKind, ecosystem: 'npm' | 'python', names: readonly string[], extra: Partial<Library> = {}): Library[] {
  return names.map((name) => ({ id: `${ecosystem}:${name}`, label: name, kind, ...extra, ...(ecosystem === 'npm' ? { npm: [name] } : { python: [name], pypi: [name] }) }))
}

const LIBRARIES: Library[] = [
  // Web frameworks
  { id: 'express', label: 'Express', kind: 'web-framework', npm: ['express'] },
  { id: 'koa', label: 'Koa', kind: 'web-framework', npm: ['koa', '@koa/router', 'koa-router'] },
  { id: 'fastify', label: 'Fastify', kind: 'web-framework', npm: ['fastify'] },
  { id: 'nestjs', label: 'NestJS', kind: 'web-framework', npm: ['@nestjs/core', '@nestjs/common', '@nestjs/platform-express', '@nestjs/platform-fastify'] },
  { id: 'nextjs', label: 'Next.js', kind: 'web-framework', npm: ['next'] },
  { id: 'hapi', label: 'hapi', kind: 'web-framework', npm: ['@hapi/hapi', 'hapi'] },
  { id: 'flask', label: 'Flask', kind: 'web-framework', python: ['flask'], pypi: ['flask'] },
  { id: 'django', label: 'Django', kind: 'web-framework', python: ['django'], pypi: ['django'] },
  { id: 'drf', label: 'Django REST framework', kind: 'web-framework', python: ['rest_framework'], pypi: ['djangorestframework'] },
  { id: 'fastapi', label: 'FastAPI', kind: 'web-framework', python: ['fastapi'], pypi: ['fastapi'] },
  { id: 'starlette', label: 'Starlette', kind: 'web-framework', python: ['starlette'], pypi: ['starlette'] },
  { id: 'aiohttp-server', label: 'aiohttp', kind: 'web-framework', python: ['aiohttp.web'] },
  { id: 'spring-web', label: 'Spring MVC', kind: 'web-framework', java: ['org.springframework.web.bind', 'org.springframework.stereotype.Controller', 'org.springframework.boot'], maven: ['spring-boot-starter-web', 'spring-webmvc', 'spring-web'] },
  { id: 'spring-webflux', label: 'Spring WebFlux', kind: 'web-framework', java: ['org.springframework.web.reactive.function.server'], maven: ['spring-boot-starter-webflux', 'spring-webflux'] },
  { id: 'servlet', label: 'Java Servlets', kind: 'web-framework', java: ['javax.servlet', 'jakarta.servlet'], maven: ['javax.servlet-api', 'jakarta.servlet-api'] },
  { id: 'jaxrs', label: 'JAX-RS', kind: 'web-framework', java: ['javax.ws.rs', 'jakarta.ws.rs'], maven: ['jakarta.ws.rs-api', 'javax.ws.rs-api', 'jersey-server'] },
  { id: 'gin', label: 'Gin', kind: 'web-framework', go: ['github.com/gin-gonic/gin'] },
  { id: 'echo', label: 'Echo', kind: 'web-framework', go: ['github.com/labstack/echo'] },
  { id: 'fiber', label: 'Fiber', kind: 'web-framework', go: ['github.com/gofiber/fiber'] },
  { id: 'chi', label: 'chi', kind: 'web-framework', go: ['github.com/go-chi/chi'] },
  { id: 'gorilla-mux', label: 'gorilla/mux', kind: 'web-framework', go: ['github.com/gorilla/mux'] },
  { id: 'go-net-http', label: 'net/http', kind: 'web-framework', go: ['net/http'] },
  { id: 'rails', label: 'Ruby on Rails', kind: 'web-framework', gem: ['rails'] },
  { id: 'sinatra', label: 'Sinatra', kind: 'web-framework', gem: ['sinatra'] },
  { id: 'laravel', label: 'Laravel', kind: 'web-framework', composer: ['laravel/framework'] },
  { id: 'symfony', label: 'Symfony', kind: 'web-framework', composer: ['symfony/framework-bundle', 'symfony/http-kernel'] },
  { id: 'actix', label: 'Actix Web', kind: 'web-framework', cargo: ['actix-web'] },
  { id: 'axum', label: 'axum', kind: 'web-framework', cargo: ['axum'] },
  { id: 'rocket', label: 'Rocket', kind: 'web-framework', cargo: ['rocket'] },
  { id: 'aspnet', label: 'ASP.NET Core', kind: 'web-framework', nuget: ['Microsoft.AspNetCore'] },
  // GraphQL
  { id: 'apollo', label: 'Apollo Server', kind: 'graphql', npm: ['@apollo/server', 'apollo-server', 'apollo-server-express'] },
  { id: 'graphql-js', label: 'GraphQL', kind: 'graphql', npm: ['graphql', 'graphql-yoga', 'type-graphql', '@nestjs/graphql', 'mercurius'] },
  { id: 'graphene', label: 'Graphene', kind: 'graphql', python: ['graphene', 'strawberry', 'ariadne'], pypi: ['graphene', 'strawberry-graphql', 'ariadne'] },
  { id: 'spring-graphql', label: 'Spring GraphQL', kind: 'graphql', java: ['org.springframework.graphql', 'graphql.'], maven: ['spring-boot-starter-graphql', 'graphql-java'] },
  // ORMs and database clients
  { id: 'sequelize', label: 'Sequelize', kind: 'orm', store: 'SQL database', npm: ['sequelize', 'sequelize-typescript'] },
  { id: 'typeorm', label: 'TypeORM', kind: 'orm', store: 'SQL database', npm: ['typeorm', '@nestjs/typeorm'] },
  { id: 'prisma', label: 'Prisma', kind: 'orm', store: 'SQL database', npm: ['@prisma/client', 'prisma'] },
  { id: 'knex', label: 'Knex', kind: 'orm', store: 'SQL database', npm: ['knex', 'objection'] },
  { id: 'drizzle', label: 'Drizzle', kind: 'orm', store: 'SQL database', npm: ['drizzle-orm'] },
  { id: 'mikro-orm', label: 'MikroORM', kind: 'orm', store: 'SQL database', npm: ['@mikro-orm/core', '@mikro-orm/postgresql', '@mikro-orm/mysql', '@mikro-orm/sqlite'] },
  { id: 'mongoose', label: 'Mongoose', kind: 'orm', store: 'MongoDB', npm: ['mongoose', '@nestjs/mongoose'] },
  { id: 'pg', label: 'pg', kind: 'database', store: 'PostgreSQL', npm: ['pg', 'pg-promise', 'postgres', '@neondatabase/serverless'] },
  { id: 'psycopg', label: 'psycopg', kind: 'database', store: 'PostgreSQL', python: ['psycopg2', 'psycopg', 'asyncpg'], pypi: ['psycopg2', 'psycopg2-binary', 'psycopg', 'asyncpg'] },
  { id: 'pgjdbc', label: 'PostgreSQL JDBC driver', kind: 'database', store: 'PostgreSQL', maven: ['postgresql'], java: ['org.postgresql'] },
  { id: 'go-postgres', label: 'pgx/pq', kind: 'database', store: 'PostgreSQL', go: ['github.com/lib/pq', 'github.com/jackc/pgx'] },
  { id: 'mysql', label: 'mysql', kind: 'database', store: 'MySQL', npm: ['mysql', 'mysql2'] },
  { id: 'py-mysql', label: 'MySQL client', kind: 'database', store: 'MySQL', python: ['pymysql', 'MySQLdb', 'mysql.connector'], pypi: ['pymysql', 'mysqlclient', 'mysql-connector-python'] },
  { id: 'mysql-jdbc', label: 'MySQL JDBC driver', kind: 'database', store: 'MySQL', maven: ['mysql-connector-java', 'mysql-connector-j'] },
  { id: 'go-mysql', label: 'go-sql-driver/mysql', kind: 'database', store: 'MySQL', go: ['github.com/go-sql-driver/mysql'] },
  { id: 'sqlite', label: 'SQLite', kind: 'database', store: 'SQLite', npm: ['sqlite3', 'better-sqlite3', 'sqlite'], python: ['sqlite3'], maven: ['sqlite-jdbc'], go: ['github.com/mattn/go-sqlite3'] },
  { id: 'mssql', label: 'SQL Server client', kind: 'database', store: 'SQL Server', npm: ['mssql', 'tedious'], python: ['pyodbc', 'pymssql'], maven: ['mssql-jdbc'] },
  { id: 'oracle', label: 'Oracle client', kind: 'database', store: 'Oracle', npm: ['oracledb'], python: ['cx_Oracle', 'oracledb'], maven: ['ojdbc8', 'ojdbc11'] },
  { id: 'mongodb', label: 'MongoDB driver', kind: 'database', store: 'MongoDB', npm: ['mongodb'], python: ['pymongo', 'motor'], pypi: ['pymongo', 'motor'], java: ['com.mongodb', 'org.springframework.data.mongodb'], maven: ['mongodb-driver-sync', 'spring-boot-starter-data-mongodb'], go: ['go.mongodb.org/mongo-driver'] },
  { id: 'redis', label: 'Redis client', kind: 'database', store: 'Redis', npm: ['redis', 'ioredis', '@redis/client'], python: ['redis', 'aioredis'], pypi: ['redis', 'aioredis'], java: ['redis.clients.jedis', 'io.lettuce', 'org.springframework.data.redis'], maven: ['jedis', 'lettuce-core', 'spring-boot-starter-data-redis'], go: ['github.com/redis/go-redis', 'github.com/go-redis/redis'] },
  { id: 'dynamodb', label: 'DynamoDB client', kind: 'database', store: 'DynamoDB', npm: ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'] },
  { id: 'elasticsearch', label: 'Elasticsearch client', kind: 'database', store: 'Elasticsearch', npm: ['@elastic/elasticsearch'], python: ['elasticsearch'] },
  { id: 'sqlalchemy', label: 'SQLAlchemy', kind: 'orm', store: 'SQL database', python: ['sqlalchemy', 'flask_sqlalchemy', 'sqlmodel'], pypi: ['sqlalchemy', 'flask-sqlalchemy', 'sqlmodel'] },
  { id: 'django-orm', label: 'Django ORM', kind: 'orm', store: 'SQL database', python: ['django.db'] },
  { id: 'peewee', label: 'peewee', kind: 'orm', store: 'SQL database', python: ['peewee', 'tortoise'], pypi: ['peewee', 'tortoise-orm'] },
  { id: 'jpa', label: 'JPA/Hibernate', kind: 'orm', store: 'SQL database', java: ['javax.persistence', 'jakarta.persistence', 'org.hibernate', 'org.springframework.data.jpa'], maven: ['spring-boot-starter-data-jpa', 'hibernate-core'] },
  { id: 'jdbc', label: 'JDBC', kind: 'database', store: 'SQL database', java: ['java.sql', 'javax.sql', 'org.springframework.jdbc'], maven: ['spring-boot-starter-jdbc', 'spring-jdbc'] },
  { id: 'mybatis', label: 'MyBatis', kind: 'orm', store: 'SQL database', java: ['org.apache.ibatis', 'org.mybatis'], maven: ['mybatis', 'mybatis-spring-boot-starter'] },
  { id: 'gorm', label: 'GORM', kind: 'orm', store: 'SQL database', go: ['gorm.io/gorm'] },
  { id: 'go-sql', label: 'database/sql', kind: 'database', store: 'SQL database', go: ['database/sql'] },
  { id: 'activerecord', label: 'ActiveRecord', kind: 'orm', store: 'SQL database', gem: ['activerecord'] },
  { id: 'diesel', label: 'Diesel', kind: 'orm', store: 'SQL database', cargo: ['diesel', 'sqlx'] },
  { id: 'efcore', label: 'Entity Framework Core', kind: 'orm', store: 'SQL database', nuget: ['Microsoft.EntityFrameworkCore'] },
  // Queues and messaging
  { id: 'bull', label: 'Bull', kind: 'queue', npm: ['bull', 'bullmq', 'bee-queue', '@nestjs/bull', '@nestjs/bullmq'] },
  { id: 'amqp', label: 'RabbitMQ (AMQP)', kind: 'queue', npm: ['amqplib', 'amqp-connection-manager'], python: ['pika', 'kombu', 'aio_pika'], pypi: ['pika', 'kombu', 'aio-pika'], java: ['org.springframework.amqp', 'com.rabbitmq'], maven: ['spring-boot-starter-amqp', 'amqp-client'] },
  { id: 'kafka', label: 'Kafka', kind: 'queue', npm: ['kafkajs', 'node-rdkafka'], python: ['kafka', 'confluent_kafka', 'aiokafka'], pypi: ['kafka-python', 'confluent-kafka', 'aiokafka'], java: ['org.apache.kafka', 'org.springframework.kafka'], maven: ['spring-kafka', 'kafka-clients'] },
  { id: 'sqs', label: 'Amazon SQS', kind: 'queue', npm: ['@aws-sdk/client-sqs', 'sqs-consumer'] },
  { id: 'nats', label: 'NATS', kind: 'queue', npm: ['nats'], python: ['nats'], pypi: ['nats-py'] },
  { id: 'celery', label: 'Celery', kind: 'queue', python: ['celery'], pypi: ['celery'] },
  { id: 'rq', label: 'RQ', kind: 'queue', python: ['rq', 'dramatiq', 'huey'], pypi: ['rq', 'dramatiq', 'huey'] },
  { id: 'jms', label: 'JMS', kind: 'queue', java: ['javax.jms', 'jakarta.jms', 'org.springframework.jms'] },
  { id: 'sidekiq', label: 'Sidekiq', kind: 'queue', gem: ['sidekiq'] },
  // Outbound HTTP
  ...perPackage('http-client', 'npm', ['axios', 'node-fetch', 'cross-fetch', 'isomorphic-fetch', 'undici', 'ky', 'got', 'request', 'request-promise', 'superagent', 'needle', 'phin']),
  { id: 'node-http', label: 'Node http/https', kind: 'http-client', npm: ['http', 'https', 'node:http', 'node:https'] },
  ...perPackage('http-client', 'python', ['requests', 'httpx', 'urllib3', 'aiohttp', 'urllib.request']),
  { id: 'java-http', label: 'Java HTTP client', kind: 'http-client', java: ['org.springframework.web.client', 'org.springframework.web.reactive.function.client', 'java.net.http', 'okhttp3', 'org.apache.http', 'org.apache.hc', 'feign', 'org.springframework.cloud.openfeign'], maven: ['okhttp', 'httpclient', 'httpclient5', 'spring-cloud-starter-openfeign'] },
  // Authentication and sessions
  { id: 'passport', label: 'Passport', kind: 'auth', mechanism: 'Passport strategies', npm: ['passport', '@nestjs/passport'] },
  { id: 'passport-jwt', label: 'passport-jwt', kind: 'auth', mechanism: 'JWT bearer tokens', npm: ['passport-jwt'] },
  { id: 'passport-local', label: 'passport-local', kind: 'auth', mechanism: 'username/password login', npm: ['passport-local'] },
  { id: 'passport-oauth', label: 'Passport OAuth strategy', kind: 'auth', mechanism: 'OAuth', npm: ['passport-oauth2', 'passport-google-oauth20', 'passport-github2', 'passport-facebook', 'passport-saml', 'passport-azure-ad'] },
  ...perPackage('auth', 'npm', ['jsonwebtoken', 'jose', 'express-jwt', 'koa-jwt', '@fastify/jwt', '@nestjs/jwt', 'jwks-rsa'], { mechanism: 'JWT' }),
  ...perPackage('auth', 'npm', ['express-session', 'cookie-session', 'koa-session', '@fastify/session', '@fastify/secure-session', 'iron-session'], { mechanism: 'server-side sessions' }),
  ...perPackage('auth', 'npm', ['express-basic-auth', 'basic-auth', '@fastify/basic-auth'], { mechanism: 'HTTP basic auth' }),
  { id: 'next-auth', label: 'NextAuth.js', kind: 'auth', mechanism: 'NextAuth.js/Auth.js sessions', npm: ['next-auth', '@auth/core', '@auth/nextjs'] },
  { id: 'clerk', label: 'Clerk', kind: 'auth', mechanism: 'Clerk (hosted auth)', npm: ['@clerk/nextjs', '@clerk/express', '@clerk/clerk-sdk-node', '@clerk/backend'] },
  { id: 'oidc', label: 'OpenID Connect', kind: 'auth', mechanism: 'OAuth/OpenID Connect', npm: ['openid-client', 'express-openid-connect', '@auth0/nextjs-auth0', 'oidc-provider'], python: ['authlib', 'oauthlib', 'requests_oauthlib', 'social_django', 'allauth'], pypi: ['authlib', 'oauthlib', 'requests-oauthlib', 'social-auth-app-django', 'django-allauth'] },
  { id: 'firebase-auth', label: 'Firebase Admin', kind: 'auth', mechanism: 'Firebase ID tokens', npm: ['firebase-admin'], python: ['firebase_admin'] },
  { id: 'fastify-auth', label: '@fastify/auth', kind: 'auth', mechanism: 'Fastify auth hooks', npm: ['@fastify/auth'] },
  { id: 'flask-login', label: 'Flask-Login', kind: 'auth', mechanism: 'session login (Flask-Login)', python: ['flask_login'], pypi: ['flask-login'] },
  { id: 'flask-jwt', label: 'Flask-JWT-Extended', kind: 'auth', mechanism: 'JWT', python: ['flask_jwt_extended', 'flask_jwt'], pypi: ['flask-jwt-extended'] },
  { id: 'pyjwt', label: 'PyJWT', kind: 'auth', mechanism: 'JWT', python: ['jwt'], pypi: ['pyjwt'] },
  { id: 'python-jose', label: 'python-jose', kind: 'auth', mechanism: 'JWT', python: ['jose'], pypi: ['python-jose'] },
  { id: 'flask-httpauth', label: 'Flask-HTTPAuth', kind: 'auth', mechanism: 'HTTP basic/token auth', python: ['flask_httpauth'], pypi: ['flask-httpauth'] },
  { id: 'flask-security', label: 'Flask-Security', kind: 'auth', mechanism: 'session login (Flask-Security)', python: ['flask_security'], pypi: ['flask-security-too', 'flask-security'] },
  { id: 'django-auth', label: 'Django auth', kind: 'auth', mechanism: 'Django sessions and permissions', python: ['django.contrib.auth'] },
  { id: 'drf-auth', label: 'DRF authentication', kind: 'auth', mechanism: 'DRF authentication/permission classes', python: ['rest_framework.authentication', 'rest_framework.permissions', 'rest_framework_simplejwt', 'knox'], pypi: ['djangorestframework-simplejwt', 'django-rest-knox'] },
  { id: 'fastapi-security', label: 'FastAPI security', kind: 'auth', mechanism: 'FastAPI security dependencies (OAuth2/bearer/API key)', python: ['fastapi.security'] },
  { id: 'spring-security', label: 'Spring Security', kind: 'auth', mechanism: 'Spring Security', java: ['org.springframework.security.config', 'org.springframework.security.web', 'org.springframework.security.core', 'org.springframework.security.access', 'org.springframework.security.authentication'], maven: ['spring-boot-starter-security', 'spring-security-web', 'spring-security-config'] },
  { id: 'spring-oauth2', label: 'Spring Security OAuth2', kind: 'auth', mechanism: 'OAuth2/JWT (Spring)', java: ['org.springframework.security.oauth2'], maven: ['spring-boot-starter-oauth2-resource-server', 'spring-boot-starter-oauth2-client'] },
  { id: 'jjwt', label: 'JJWT', kind: 'auth', mechanism: 'JWT', java: ['io.jsonwebtoken', 'com.auth0.jwt', 'com.nimbusds.jwt'], maven: ['jjwt', 'jjwt-api', 'java-jwt', 'nimbus-jose-jwt'] },
  { id: 'jakarta-security', label: 'Jakarta security annotations', kind: 'auth', mechanism: 'role annotations', java: ['javax.annotation.security', 'jakarta.annotation.security'] },
  { id: 'devise', label: 'Devise', kind: 'auth', mechanism: 'session login (Devise)', gem: ['devise'] },
  // Security controls
  ...perPackage('security-headers', 'npm', ['helmet', '@fastify/helmet', 'koa-helmet']),
  { id: 'talisman', label: 'Flask-Talisman', kind: 'security-headers', python: ['flask_talisman'], pypi: ['flask-talisman'] },
  { id: 'py-secure', label: 'secure', kind: 'security-headers', python: ['secure'], pypi: ['secure'] },
  ...perPackage('csrf', 'npm', ['csurf', 'csrf-csrf', 'lusca', '@fastify/csrf-protection', 'koa-csrf', 'csrf']),
  { id: 'flask-wtf', label: 'Flask-WTF CSRFProtect', kind: 'csrf', python: ['flask_wtf.csrf', 'flask_wtf'], pypi: ['flask-wtf'] },
  ...perPackage('rate-limit', 'npm', ['express-rate-limit', 'rate-limiter-flexible', 'express-slow-down', '@fastify/rate-limit', 'koa-ratelimit', '@nestjs/throttler']),
  { id: 'flask-limiter', label: 'Flask-Limiter', kind: 'rate-limit', python: ['flask_limiter'], pypi: ['flask-limiter'] },
  { id: 'slowapi', label: 'SlowAPI', kind: 'rate-limit', python: ['slowapi'], pypi: ['slowapi'] },
  { id: 'django-ratelimit', label: 'django-ratelimit', kind: 'rate-limit', python: ['django_ratelimit', 'ratelimit'], pypi: ['django-ratelimit'] },
  { id: 'bucket4j', label: 'Bucket4j', kind: 'rate-limit', java: ['io.github.bucket4j', 'com.github.bucket4j'], maven: ['bucket4j-core'] },
  { id: 'resilience4j', label: 'Resilience4j RateLimiter', kind: 'rate-limit', java: ['io.github.resilience4j.ratelimiter'], maven: ['resilience4j-ratelimiter'] },
  ...perPackage('cors', 'npm', ['cors', '@fastify/cors', '@koa/cors', 'koa-cors']),
  { id: 'flask-cors', label: 'Flask-CORS', kind: 'cors', python: ['flask_cors'], pypi: ['flask-cors'] },
  { id: 'django-cors', label: 'django-cors-headers', kind: 'cors', python: ['corsheaders'], pypi: ['django-cors-headers'] },
  { id: 'starlette-cors', label: 'CORSMiddleware', kind: 'cors', python: ['fastapi.middleware.cors', 'starlette.middleware.cors'] },
  { id: 'spring-cors', label: 'Spring CORS', kind: 'cors', java: ['org.springframework.web.bind.annotation.CrossOrigin', 'org.springframework.web.cors'] },
  ...perPackage('validation', 'npm', ['zod', 'joi', 'yup', 'express-validator', 'class-validator', 'ajv', 'celebrate', 'superstruct', 'valibot', '@sinclair/typebox', 'io-ts', '@hapi/joi', 'class-transformer']),
  ...perPackage('validation', 'python', ['pydantic', 'marshmallow', 'wtforms', 'cerberus', 'voluptuous', 'jsonschema', 'flask_marshmallow']),
  { id: 'drf-serializers', label: 'DRF serializers', kind: 'validation', python: ['rest_framework.serializers'] },
  { id: 'django-forms', label: 'Django forms', kind: 'validation', python: ['django.forms'] },
  { id: 'bean-validation', label: 'Bean Validation', kind: 'validation', java: ['javax.validation', 'jakarta.validation', 'org.hibernate.validator'], maven: ['spring-boot-starter-validation', 'hibernate-validator'] },
  ...perPackage('password-hashing', 'npm', ['bcrypt', 'bcryptjs', 'argon2', '@node-rs/argon2', '@node-rs/bcrypt']),
  ...perPackage('password-hashing', 'python', ['bcrypt', 'argon2', 'passlib']),
  { id: 'werkzeug-security', label: 'Werkzeug password hashing', kind: 'password-hashing', python: ['werkzeug.security'] },
  { id: 'django-hashers', label: 'Django password hashers', kind: 'password-hashing', python: ['django.contrib.auth.hashers'] },
  { id: 'spring-crypto', label: 'Spring Security PasswordEncoder', kind: 'password-hashing', java: ['org.springframework.security.crypto'], maven: ['spring-security-crypto'] },
  { id: 'jbcrypt', label: 'jBCrypt', kind: 'password-hashing', java: ['org.mindrot.jbcrypt', 'de.mkammerer.argon2'], maven: ['jbcrypt'] },
  { id: 'crypto', label: 'crypto', kind: 'crypto', npm: ['crypto', 'node:crypto', 'crypto-js', 'node-forge', 'tweetnacl', 'libsodium-wrappers'], python: ['hashlib', 'hmac', 'secrets', 'cryptography', 'Crypto', 'Cryptodome', 'nacl'], pypi: ['cryptography', 'pycryptodome', 'pynacl'], java: ['javax.crypto', 'java.security', 'org.bouncycastle'], maven: ['bcprov-jdk18on', 'bcprov-jdk15on'] },
  ...perPackage('secrets-config', 'npm', ['dotenv', '@nestjs/config', 'config', 'convict', 'envalid', 'env-var']),
  { id: 'python-dotenv', label: 'python-dotenv', kind: 'secrets-config', python: ['dotenv'], pypi: ['python-dotenv'] },
  ...perPackage('secrets-config', 'python', ['decouple', 'environs', 'pydantic_settings']),
  { id: 'vault', label: 'secret manager client', kind: 'secrets-config', npm: ['@aws-sdk/client-secrets-manager', 'node-vault', '@google-cloud/secret-manager', '@azure/keyvault-secrets'], python: ['hvac', 'google.cloud.secretmanager'], pypi: ['hvac', 'google-cloud-secret-manager'] },
  // Other entry and exit libraries
  ...perPackage('cli', 'npm', ['commander', 'yargs', 'minimist', 'meow', '@oclif/core', 'cac', 'citty']),
  ...perPackage('cli', 'python', ['argparse', 'click', 'typer', 'fire', 'docopt']),
  { id: 'picocli', label: 'picocli', kind: 'cli', java: ['picocli', 'org.apache.commons.cli'], maven: ['picocli', 'commons-cli'] },
  { id: 'ws', label: 'WebSocket', kind: 'websocket', npm: ['ws', 'socket.io', '@nestjs/websockets', '@fastify/websocket'], python: ['websockets', 'flask_socketio', 'channels'], pypi: ['websockets', 'flask-socketio', 'channels'], java: ['javax.websocket', 'jakarta.websocket', 'org.springframework.web.socket'] },
  { id: 'cron', label: 'cron scheduler', kind: 'scheduler', npm: ['node-cron', 'cron', 'agenda', 'node-schedule', '@nestjs/schedule'], python: ['apscheduler', 'schedule'], pypi: ['apscheduler', 'schedule'], java: ['org.springframework.scheduling', 'org.quartz'] },
  { id: 'templates', label: 'server-side templates', kind: 'template', npm: ['ejs', 'pug', 'handlebars', 'express-handlebars', 'nunjucks', 'mustache'], python: ['jinja2', 'mako'], pypi: ['jinja2', 'mako'], java: ['org.thymeleaf', 'freemarker'] },
  { id: 'child-process', label: 'child_process', kind: 'shell', npm: ['child_process', 'node:child_process', 'execa', 'shelljs', 'zx', 'cross-spawn'], python: ['subprocess', 'sh', 'plumbum', 'pexpect'] },
  { id: 'fs', label: 'fs', kind: 'filesystem', npm: ['fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'fs-extra', 'multer', 'formidable', 'busboy'], python: ['shutil', 'pathlib', 'tempfile'], java: ['java.nio.file'] },
]

const byNpm = new Map<string, Library>()
const byPypi = new Map<string, Library>()
const byPython = new Map<string, Library>()
const byJava: Array<[string, Library]> = []
const byEcosystem = new Map<string, Map<string, Library>>()

for (const library of LIBRARIES) {
  for (const name of library.npm ?? []) byNpm.set(name, library)
  for (const name of library.python ?? []) byPython.set(name, library)
  for (const name of library.pypi ?? library.python ?? []) byPypi.set(normalizePypi(name), library)
  for (const prefix of library.java ?? []) byJava.push([prefix, library])
  for (const [ecosystem, names] of [
    ['maven', library.maven],
    ['go', library.go],
    ['gem', library.gem],
    ['composer', library.composer],
    ['cargo', library.cargo],
    ['nuget', library.nuget],
  ] as const) {
    const index = byEcosystem.get(ecosystem) ?? new Map<string, Library>()
    for (const name of names ?? []) index.set(ecosystem === 'nuget' ? name.toLowerCase() : name, library)
    byEcosystem.set(ecosystem, index)
  }
}
// Longest prefix first, so `org.springframework.security.oauth2` beats `...security`.
byJava.sort((a, b) => b[0].length - a[0].length)

export function normalizePypi(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-')
}

/** Package name of an npm import specifier (`@scope/pkg/sub` -> `@scope/pkg`). */
export function npmPackageName(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier)
}

export function libraryForNpm(specifier: string): Library | undefined {
  return byNpm.get(specifier) ?? byNpm.get(npmPackageName(specifier))
}

/** Longest dotted prefix of a Python module that the catalog knows. */
export function libraryForPython(module: string): Library | undefined {
  let name = module
  for (;;) {
    const found = byPython.get(name)
    if (found) return found
    const dot = name.lastIndexOf('.')
    if (dot === -1) return undefined
    name = name.slice(0, dot)
  }
}

export function libraryForJava(qualifiedName: string): Library | undefined {
  for (const [prefix, library] of byJava) {
    if (qualifiedName === prefix || qualifiedName.startsWith(prefix.endsWith('.') ? prefix : `${prefix}.`)) return library
  }
  return undefined
}

export function libraryForGo(modulePath: string): Library | undefined {
  const index = byEcosystem.get('go')
  if (!index) return undefined
  for (const [prefix, library] of index) if (modulePath === prefix || modulePath.startsWith(`${prefix}/`)) return library
  return undefined
}

export type Ecosystem = 'npm' | 'pypi' | 'maven' | 'go' | 'gem' | 'composer' | 'cargo' | 'nuget'

/** A dependency declared in a manifest, by ecosystem and name. */
export function libraryForDependency(ecosystem: Ecosystem, name: string): Library | undefined {
  if (ecosystem === 'npm') return libraryForNpm(name)
  if (ecosystem === 'pypi') return byPypi.get(normalizePypi(name))
  if (ecosystem === 'go') return libraryForGo(name)
  const index = byEcosystem.get(ecosystem)
  if (ecosystem === 'nuget') {
    const lower = name.toLowerCase()
    for (const [prefix, library] of index ?? []) if (lower === prefix || lower.startsWith(`${prefix}.`)) return library
    return undefined
  }
  return index?.get(name)
}
