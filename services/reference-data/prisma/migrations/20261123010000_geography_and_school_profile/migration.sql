-- CreateEnum
CREATE TYPE "municipality_type" AS ENUM ('metropolitan', 'sub_metropolitan', 'municipality', 'rural_municipality', 'vdc');

-- CreateTable
CREATE TABLE "provinces" (
    "id" SERIAL NOT NULL,
    "public_id" UUID NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "name_np" VARCHAR(120),
    "code" VARCHAR(20),
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "provinces_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "districts" (
    "id" SERIAL NOT NULL,
    "public_id" UUID NOT NULL,
    "province_id" INTEGER NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "name_np" VARCHAR(120),
    "code" VARCHAR(20),
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "districts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "municipalities" (
    "id" SERIAL NOT NULL,
    "public_id" UUID NOT NULL,
    "district_id" INTEGER NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "name_np" VARCHAR(120),
    "code" VARCHAR(20),
    "type" "municipality_type" NOT NULL,
    "ward_count" INTEGER,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "municipalities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "school_profile" (
    "id" INTEGER NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "province_id" INTEGER NOT NULL,
    "district_id" INTEGER NOT NULL,
    "municipality_id" INTEGER NOT NULL,
    "ward" INTEGER,
    "street" VARCHAR(255),
    "phone" VARCHAR(16),
    "email" VARCHAR(255),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "school_profile_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "provinces_public_id_key" ON "provinces"("public_id");

-- CreateIndex
CREATE UNIQUE INDEX "districts_public_id_key" ON "districts"("public_id");

-- CreateIndex
CREATE INDEX "districts_province_id_idx" ON "districts"("province_id");

-- CreateIndex
CREATE UNIQUE INDEX "municipalities_public_id_key" ON "municipalities"("public_id");

-- CreateIndex
CREATE INDEX "municipalities_district_id_idx" ON "municipalities"("district_id");

-- CreateIndex
CREATE INDEX "school_profile_province_id_idx" ON "school_profile"("province_id");

-- CreateIndex
CREATE INDEX "school_profile_district_id_idx" ON "school_profile"("district_id");

-- CreateIndex
CREATE INDEX "school_profile_municipality_id_idx" ON "school_profile"("municipality_id");

-- AddForeignKey
ALTER TABLE "districts" ADD CONSTRAINT "districts_province_id_fkey" FOREIGN KEY ("province_id") REFERENCES "provinces"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "municipalities" ADD CONSTRAINT "municipalities_district_id_fkey" FOREIGN KEY ("district_id") REFERENCES "districts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "school_profile" ADD CONSTRAINT "school_profile_province_id_fkey" FOREIGN KEY ("province_id") REFERENCES "provinces"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "school_profile" ADD CONSTRAINT "school_profile_district_id_fkey" FOREIGN KEY ("district_id") REFERENCES "districts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "school_profile" ADD CONSTRAINT "school_profile_municipality_id_fkey" FOREIGN KEY ("municipality_id") REFERENCES "municipalities"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Rules schema.prisma cannot state (see the model comments).
-- Names are unique whatever their letter case, in their scope (spec §4.7 rule 2).
CREATE UNIQUE INDEX "provinces_name_lower_key" ON "provinces"(lower("name"));
CREATE UNIQUE INDEX "districts_province_name_lower_key" ON "districts"("province_id", lower("name"));
CREATE UNIQUE INDEX "municipalities_district_name_lower_key" ON "municipalities"("district_id", lower("name"));

-- wardCount 1-35 (spec §2.8, §8).
ALTER TABLE "municipalities" ADD CONSTRAINT "municipalities_ward_count_check" CHECK ("ward_count" BETWEEN 1 AND 35);

-- The school profile is one row.
ALTER TABLE "school_profile" ADD CONSTRAINT "school_profile_single_row_check" CHECK ("id" = 1);
