-- CreateTable
CREATE TABLE "academic_sessions" (
    "id" SERIAL NOT NULL,
    "public_id" UUID NOT NULL,
    "name" VARCHAR(64) NOT NULL,
    "start_date" DATE NOT NULL,
    "end_date" DATE NOT NULL,
    "is_current" BOOLEAN NOT NULL DEFAULT false,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "academic_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "academic_sessions_public_id_key" ON "academic_sessions"("public_id");

-- Rules schema.prisma cannot state (see the AcademicSession model comment).
-- Names are unique whatever their letter case (spec §4.6 rule 5).
CREATE UNIQUE INDEX "academic_sessions_name_lower_key" ON "academic_sessions"(lower("name"));

-- At most one current session (spec §2.7); a second true row is refused whatever the race.
CREATE UNIQUE INDEX "academic_sessions_one_current_key" ON "academic_sessions"("is_current") WHERE "is_current";

-- endDate strictly after startDate (spec §2.7, §4.6 rules 3-4).
ALTER TABLE "academic_sessions" ADD CONSTRAINT "academic_sessions_dates_check" CHECK ("end_date" > "start_date");
